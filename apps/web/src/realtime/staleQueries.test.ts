import { QueryClient } from '@tanstack/react-query';
import { afterEach, describe, expect, it } from 'vitest';
import { readStaleQueriesAgain } from './staleQueries.ts';

/** Answers as the API client keeps them: each object with the position its server named. */
function answers() {
  const seqs = new WeakMap<object, number>();
  return {
    answerSeq: (data: unknown) => (typeof data === 'object' && data !== null ? seqs.get(data) : undefined),
    answer<T extends object>(data: T, seq: number): T {
      seqs.set(data, seq);
      return data;
    },
  };
}

let client: QueryClient | undefined;
afterEach(() => client?.clear());

/** The keys of the queries marked to be read again. */
function invalidatedKeys(qc: QueryClient): unknown[] {
  return qc
    .getQueryCache()
    .getAll()
    .filter((q) => q.state.isInvalidated)
    .map((q) => q.queryKey[0])
    .sort();
}

describe('readStaleQueriesAgain', () => {
  it('reads again only what does not reflect the stream’s first position, also once it answers', async () => {
    const { answerSeq, answer } = answers();
    const qc = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity } } });
    client = qc;
    const answering = (seq: number) => () => Promise.resolve(answer({ seq }, seq));
    // Loaded before the stream started: one at its position, one before it, one with no position,
    // and two infinite queries of two pages each: one with a page before it, one with none.
    await qc.fetchQuery({ queryKey: ['current'], queryFn: answering(40) });
    await qc.fetchQuery({ queryKey: ['behind'], queryFn: answering(39) });
    await qc.fetchQuery({ queryKey: ['unknown'], queryFn: () => Promise.resolve({ made: 'here' }) });
    for (const [key, seqs] of [
      ['pages-straddling', [40, 38]],
      ['pages-current', [41, 40]],
    ] as const) {
      await qc.fetchInfiniteQuery({
        queryKey: [key],
        queryFn: ({ pageParam }) => Promise.resolve(answer({ page: pageParam }, seqs[pageParam]!)),
        initialPageParam: 0,
        getNextPageParam: (_last, pages) => (pages.length < 2 ? pages.length : undefined),
        pages: 2,
      });
    }
    // Still loading when the stream is ready: judged by its answer.
    let answerLate!: (data: object) => void;
    const late = qc.fetchQuery({
      queryKey: ['late'],
      queryFn: () =>
        new Promise<object>((resolve) => {
          answerLate = resolve;
        }),
    });

    const stop = readStaleQueriesAgain(qc, 40, answerSeq);
    expect(invalidatedKeys(qc)).toEqual(['behind', 'pages-straddling', 'unknown']);

    answerLate(answer({ key: 'late' }, 39));
    await late;
    expect(invalidatedKeys(qc)).toEqual(['behind', 'late', 'pages-straddling', 'unknown']);
    stop();
  });

  it('leaves everything as it is when every answer reflects the position, and waits for nothing', async () => {
    const { answerSeq, answer } = answers();
    const qc = new QueryClient();
    client = qc;
    await qc.fetchQuery({ queryKey: ['a'], queryFn: () => Promise.resolve(answer({ a: 1 }, 7)) });
    await qc.fetchQuery({ queryKey: ['b'], queryFn: () => Promise.resolve(answer({ b: 1 }, 9)) });
    readStaleQueriesAgain(qc, 7, answerSeq);
    expect(invalidatedKeys(qc)).toEqual([]);
  });

  it('keeps a query that was loading when the stream became ready if its answer reflects the position', async () => {
    const { answerSeq, answer } = answers();
    const qc = new QueryClient();
    client = qc;
    let answerIt!: (data: object) => void;
    const loading = qc.fetchQuery({
      queryKey: ['topic'],
      queryFn: () =>
        new Promise<object>((resolve) => {
          answerIt = resolve;
        }),
    });
    readStaleQueriesAgain(qc, 5, answerSeq);
    answerIt(answer({ topic: 1 }, 5));
    await loading;
    expect(qc.getQueryState(['topic'])?.isInvalidated).toBe(false);
  });

  it('stops watching a load that was cancelled: what is asked afterwards was asked after the start', async () => {
    const { answerSeq, answer } = answers();
    const qc = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    client = qc;
    const never = qc
      .fetchQuery({
        queryKey: ['gone'],
        queryFn: ({ signal }) =>
          new Promise<object>((_, reject) => {
            signal.addEventListener('abort', () => reject(signal.reason));
          }),
      })
      .catch(() => undefined);
    readStaleQueriesAgain(qc, 9, answerSeq);
    await qc.cancelQueries({ queryKey: ['gone'] });
    await never;
    await qc.fetchQuery({ queryKey: ['gone'], queryFn: () => Promise.resolve(answer({ gone: false }, 3)) });
    expect(qc.getQueryState(['gone'])?.isInvalidated).toBe(false);
  });
});
