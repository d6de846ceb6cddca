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

describe('readStaleQueriesAgain', () => {
  it('reads again only what does not reflect the stream’s first position, also once it answers', async () => {
    const { answerSeq, answer } = answers();
    const qc = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity } } });
    client = qc;
    const fetched: string[] = [];
    const fetchFor = (key: string, seq: number) => () => {
      fetched.push(key);
      return Promise.resolve(answer({ key }, seq));
    };
    // Loaded before the stream started: one at its position, one before it, one with no position,
    // and an infinite query whose pages straddle it.
    await qc.fetchQuery({ queryKey: ['current'], queryFn: fetchFor('current', 40) });
    await qc.fetchQuery({ queryKey: ['behind'], queryFn: fetchFor('behind', 39) });
    await qc.fetchQuery({ queryKey: ['unknown'], queryFn: () => Promise.resolve({ made: 'here' }) });
    await qc.fetchInfiniteQuery({
      queryKey: ['pages'],
      queryFn: fetchFor('pages', 38),
      initialPageParam: 0,
    });
    // Still loading when the stream is ready: judged by its answer.
    let answerLate!: (data: object) => void;
    const late = qc.fetchQuery({
      queryKey: ['late'],
      queryFn: () => {
        fetched.push('late');
        return new Promise<object>((resolve) => {
          answerLate = resolve;
        });
      },
    });
    fetched.length = 0;

    const stop = readStaleQueriesAgain(qc, 40, answerSeq);
    const invalidated = () =>
      qc
        .getQueryCache()
        .getAll()
        .filter((q) => q.state.isInvalidated)
        .map((q) => q.queryKey[0])
        .sort();
    expect(invalidated()).toEqual(['behind', 'pages', 'unknown']);

    answerLate(answer({ key: 'late' }, 39));
    await late;
    expect(invalidated()).toEqual(['behind', 'late', 'pages', 'unknown']);
    stop();
  });

  it('leaves everything as it is when every answer reflects the position, and waits for nothing', async () => {
    const { answerSeq, answer } = answers();
    const qc = new QueryClient();
    client = qc;
    await qc.fetchQuery({ queryKey: ['a'], queryFn: () => Promise.resolve(answer({ a: 1 }, 7)) });
    await qc.fetchQuery({ queryKey: ['b'], queryFn: () => Promise.resolve(answer({ b: 1 }, 9)) });
    readStaleQueriesAgain(qc, 7, answerSeq);
    expect(
      qc
        .getQueryCache()
        .getAll()
        .some((q) => q.state.isInvalidated),
    ).toBe(false);
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
