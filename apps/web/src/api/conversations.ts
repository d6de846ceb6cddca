import type { Topic, TopicPage } from '@btalk/contracts';
import type { ApiClient } from './client.ts';

/** `/api/conversations`: direct conversations (topics whose visibility is `direct`). */
export function conversationsApi(client: ApiClient) {
  return {
    /** My direct conversations, newest activity first, with unread counts. */
    list: (query: { cursor?: string; limit?: number }) => client.get<TopicPage>('/conversations', query),
    /** The conversation of me and these 1 to 7 people: made the first time, the same one after. */
    start: (userIds: string[]) => client.post<Topic>('/conversations', { userIds }),
  };
}
