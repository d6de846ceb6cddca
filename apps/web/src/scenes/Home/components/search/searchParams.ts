import type { SearchRequest } from '../../../../api/search.ts';

/**
 * Home keeps its search in its address (`/?q=budget&author=…&file=1&from=2026-11-01&to=2026-11-25`),
 * so that Back from a result comes back to the same results, and a link (the quick switcher's
 * person) opens a search. `from` and `to` are days of the reader's calendar.
 */
export const SEARCH_PARAMS = ['q', 'topic', 'author', 'file', 'from', 'to'] as const;

/** Whether the address asks for a search (words or a filter) rather than the topic list. */
export function isSearching(params: URLSearchParams): boolean {
  return SEARCH_PARAMS.some((key) => (params.get(key) ?? '').trim() !== '');
}

/** The filters of the address. */
export interface SearchFilterValues {
  topic: string | null;
  author: string | null;
  hasFile: boolean;
  from: string | null;
  to: string | null;
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** Reads the filters from the address (a malformed day is left out). */
export function filtersFrom(params: URLSearchParams): SearchFilterValues {
  const day = (key: string) => {
    const value = params.get(key);
    return value && DAY.test(value) ? value : null;
  };
  return {
    topic: params.get('topic') || null,
    author: params.get('author') || null,
    hasFile: params.get('file') === '1',
    from: day('from'),
    to: day('to'),
  };
}

/** Writes filters into the address, keeping the words. */
export function withFilters(params: URLSearchParams, filters: SearchFilterValues): URLSearchParams {
  const next = new URLSearchParams(params);
  const set = (key: string, value: string | null) => (value ? next.set(key, value) : next.delete(key));
  set('topic', filters.topic);
  set('author', filters.author);
  set('file', filters.hasFile ? '1' : null);
  set('from', filters.from);
  set('to', filters.to);
  return next;
}

/** The instant a day of the reader's calendar starts (`edge` from) or ends (`edge` to). */
export function localDayEdge(day: string, edge: 'from' | 'to'): string {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  const start = new Date(y, m - 1, d);
  return edge === 'from'
    ? start.toISOString()
    : new Date(new Date(y, m - 1, d + 1).getTime() - 1).toISOString();
}

/** The API request for the words and the filters. */
export function searchRequest(q: string, filters: SearchFilterValues): SearchRequest {
  return {
    q,
    ...(filters.topic ? { topic: filters.topic } : {}),
    ...(filters.author ? { author: filters.author } : {}),
    ...(filters.hasFile ? { hasFile: 'true' as const } : {}),
    ...(filters.from ? { from: localDayEdge(filters.from, 'from') } : {}),
    ...(filters.to ? { to: localDayEdge(filters.to, 'to') } : {}),
  };
}
