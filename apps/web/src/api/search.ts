import type { SearchPage } from '@btalk/contracts';
import type { ApiClient } from './client.ts';

/** `/api/search`: topics and posts the caller may see. */
export function searchApi(client: ApiClient) {
  return {
    /** Hits for `q`, newest first. */
    search: (q: string, cursor?: string) => client.get<SearchPage>('/search', { q, cursor, limit: 20 }),
  };
}
