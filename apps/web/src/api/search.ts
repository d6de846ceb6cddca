import type { SearchPage, SearchQuery } from '@btalk/contracts';
import type { ApiClient } from './client.ts';

/** What to search for: words and filters as `GET /api/search` takes them (empty `q`: filters only). */
export type SearchRequest = Partial<
  Pick<SearchQuery, 'topic' | 'author' | 'hasFile' | 'kind' | 'from' | 'to'>
> & {
  q: string;
};

/** `/api/search`: topics, posts and comments the caller may see. */
export function searchApi(client: ApiClient) {
  return {
    /** Hits for the words and filters, newest first, with the filters' names. */
    search: ({ q, ...filters }: SearchRequest, cursor?: string, limit = 20) =>
      client.get<SearchPage>('/search', { ...(q ? { q } : {}), ...filters, cursor, limit }),
  };
}
