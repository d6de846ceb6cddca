import type { Query, QueryClient } from '@tanstack/react-query';

/** The stream's position behind an answer's data (`ApiClient.answerSeq`). */
export type AnswerSeq = (data: unknown) => number | undefined;

/**
 * Whether `data` reflects every event up to `seq`: an answer the server said so of, or an infinite
 * query's pages, each such an answer. Anything else (data made here, an older server) is not known to.
 */
function reflects(data: unknown, seq: number, answerSeq: AnswerSeq): boolean {
  const pages = (data as { pages?: unknown } | null)?.pages;
  if (Array.isArray(pages) && pages.length > 0) return pages.every((page) => reflects(page, seq, answerSeq));
  const at = answerSeq(data);
  return at !== undefined && at >= seq;
}

function readAgain(qc: QueryClient, query: Query): void {
  void qc.invalidateQueries({ queryKey: query.queryKey, exact: true });
}

/**
 * After the realtime stream's first `ready` at `seq`, the stream carries every event after `seq`;
 * what was loaded before it may have missed some up to it. Reads again only the queries whose
 * answers do not already reflect `seq` (the server names its stream's position on each answer): on a
 * cold start nothing usually happened between the page's first requests and its stream's start, and
 * the page is not loaded twice. A query still loading is judged by its answer when it comes. Returns
 * a function that stops waiting for those answers.
 */
export function readStaleQueriesAgain(qc: QueryClient, seq: number, answerSeq: AnswerSeq): () => void {
  const cache = qc.getQueryCache();
  const loading = new Set<string>();
  for (const query of cache.getAll()) {
    if (query.state.fetchStatus === 'fetching') loading.add(query.queryHash);
    else if (query.state.data === undefined || !reflects(query.state.data, seq, answerSeq))
      readAgain(qc, query);
  }
  if (loading.size === 0) return () => {};
  const stop = cache.subscribe((event) => {
    if (event.type !== 'updated' || !loading.has(event.query.queryHash)) return;
    // Still loading (a realtime patch of it meanwhile is not its answer).
    if (event.query.state.fetchStatus === 'fetching') return;
    loading.delete(event.query.queryHash);
    // Its own answer decides; an error or a cancelled load leaves it to whoever asks next.
    const { action } = event;
    if (action.type === 'success' && !action.manual && !reflects(event.query.state.data, seq, answerSeq))
      readAgain(qc, event.query);
    if (loading.size === 0) stop();
  });
  return stop;
}
