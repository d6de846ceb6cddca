import { analyticsApi } from './analytics.ts';
import { attachmentsApi } from './attachments.ts';
import { authApi } from './auth.ts';
import { calltreeApi } from './calltree.ts';
import type { ApiClient } from './client.ts';
import { conversationsApi } from './conversations.ts';
import { meApi } from './me.ts';
import { notificationSettingsApi } from './notificationSettings.ts';
import { notificationsApi } from './notifications.ts';
import { peopleApi } from './people.ts';
import { postsApi } from './posts.ts';
import { searchApi } from './search.ts';
import { termsApi } from './terms.ts';
import { topicsApi } from './topics.ts';
import { uploadSettingsApi } from './uploadSettings.ts';
import { usersApi } from './users.ts';

/** The typed product API, one part per resource, over one client. */
export function createApi(client: ApiClient) {
  return {
    client,
    me: meApi(client),
    analytics: analyticsApi(client),
    auth: authApi(client),
    terms: termsApi(client),
    topics: topicsApi(client),
    conversations: conversationsApi(client),
    posts: postsApi(client),
    users: usersApi(client),
    people: peopleApi(client),
    search: searchApi(client),
    attachments: attachmentsApi(client),
    uploadSettings: uploadSettingsApi(client),
    calltree: calltreeApi(client),
    notifications: notificationsApi(client),
    notificationSettings: notificationSettingsApi(client),
  };
}

/** The typed product API. */
export type Api = ReturnType<typeof createApi>;
