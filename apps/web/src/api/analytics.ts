import type { PageViewRequest, PageViewResponse } from '@btalk/contracts';
import type { ApiClient } from './client.ts';

/** `/api/analytics`: page views, kept on this server only. */
export function analyticsApi(client: ApiClient) {
  return {
    /** Records that a screen was shown. */
    pageView: (view: PageViewRequest) => client.post<PageViewResponse>('/analytics/pageviews', view),
  };
}
