import { analyticsApi } from './analytics.ts';
import type { announcementsApi } from './announcements.ts';
import type { attachmentsApi } from './attachments.ts';
import { authApi } from './auth.ts';
import { calltreeApi } from './calltree.ts';
import type { ApiClient } from './client.ts';
import { conversationsApi } from './conversations.ts';
import { meApi } from './me.ts';
import { notificationSettingsApi } from './notificationSettings.ts';
import { notificationsApi } from './notifications.ts';
import type { peopleApi } from './people.ts';
import { postsApi } from './posts.ts';
import type { searchApi } from './search.ts';
import { termsApi } from './terms.ts';
import { topicsApi } from './topics.ts';
import type { uploadSettingsApi } from './uploadSettings.ts';
import { usersApi } from './users.ts';

/**
 * A part of the API whose code loads on its first call: every method answers a promise, so a call
 * waits for the module, then runs.
 */
function loadedOnFirstCall<T extends object>(load: () => Promise<T>): T {
  let loaded: Promise<T> | null = null;
  const part = () => {
    loaded ??= load();
    return loaded;
  };
  return new Proxy({} as T, {
    get:
      (_target, name) =>
      (...args: unknown[]) =>
        part().then((api) => (api[name as keyof T] as (...a: unknown[]) => unknown)(...args)),
  });
}

/**
 * The typed product API, one part per resource, over one client. The parts no first screen calls
 * (announcements, people, search, attachments, upload settings) load on their first call: the first
 * screen's scripts are held to a budget (bench/web-size.ts).
 */
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
    announcements: loadedOnFirstCall<ReturnType<typeof announcementsApi>>(() =>
      import('./announcements.ts').then((m) => m.announcementsApi(client)),
    ),
    users: usersApi(client),
    people: loadedOnFirstCall<ReturnType<typeof peopleApi>>(() =>
      import('./people.ts').then((m) => m.peopleApi(client)),
    ),
    search: loadedOnFirstCall<ReturnType<typeof searchApi>>(() =>
      import('./search.ts').then((m) => m.searchApi(client)),
    ),
    attachments: loadedOnFirstCall<ReturnType<typeof attachmentsApi>>(() =>
      import('./attachments.ts').then((m) => m.attachmentsApi(client)),
    ),
    uploadSettings: loadedOnFirstCall<ReturnType<typeof uploadSettingsApi>>(() =>
      import('./uploadSettings.ts').then((m) => m.uploadSettingsApi(client)),
    ),
    calltree: calltreeApi(client),
    notifications: notificationsApi(client),
    notificationSettings: notificationSettingsApi(client),
  };
}

/** The typed product API. */
export type Api = ReturnType<typeof createApi>;
