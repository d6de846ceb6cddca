/*
 * BTalk's push notifications, loaded into the generated service worker (vite.config.ts:
 * `workbox.importScripts`). Plain JavaScript: it is copied as it is, not bundled.
 *
 * A push message is JSON {title, body, url, tag, urgent, notificationIds} (the server's push channel);
 * an important post's also has `actions` ([{action: 'acknowledge', title}]) and `acknowledgeUrl`.
 * Clicking the notification focuses an open BTalk window and shows the url there, or opens a window.
 * Its Acknowledge button POSTs `acknowledgeUrl` (a signed link: no session needed) and closes it; when
 * that does not work (expired, offline, the post changed), the post opens, to acknowledge it there.
 */

/** What is shown when a push message cannot be read (a notification must still be shown). */
const FALLBACK = {
  title: 'BTalk',
  body: '',
  url: '/',
  tag: undefined,
  urgent: false,
  notificationIds: [],
  actions: [],
  acknowledgeUrl: null,
};

/** A path of this origin from an absolute URL of it or a path; null for anything else. */
function ownPath(value) {
  if (typeof value !== 'string' || !value) return null;
  try {
    const url = new URL(value, self.location.origin);
    if (url.origin !== self.location.origin) return null;
    return `${url.pathname}${url.search}${url.hash}`;
  } catch {
    return null;
  }
}

/** The push message's JSON, or the fallback when it is missing or not JSON. */
function readPush(data) {
  if (!data) return FALLBACK;
  try {
    const value = data.json();
    if (!value || typeof value !== 'object') return FALLBACK;
    // Only this server's own endpoint may be POSTed to from a notification's button.
    const acknowledgePath = ownPath(value.acknowledgeUrl);
    const acknowledgeUrl =
      acknowledgePath?.startsWith('/api/announcements/acknowledge/') === true ? acknowledgePath : null;
    const actions =
      acknowledgeUrl && Array.isArray(value.actions)
        ? value.actions
            .filter((a) => a && a.action === 'acknowledge' && typeof a.title === 'string' && a.title)
            .slice(0, 1)
            .map((a) => ({ action: 'acknowledge', title: a.title }))
        : [];
    return {
      title: typeof value.title === 'string' && value.title ? value.title : FALLBACK.title,
      body: typeof value.body === 'string' ? value.body : '',
      // The server sends absolute URLs of its own origin; anything else opens Home.
      url: ownPath(value.url) ?? '/',
      tag: typeof value.tag === 'string' && value.tag ? value.tag : undefined,
      urgent: value.urgent === true,
      notificationIds: Array.isArray(value.notificationIds) ? value.notificationIds : [],
      actions,
      acknowledgeUrl: actions.length > 0 ? acknowledgeUrl : null,
    };
  } catch {
    return FALLBACK;
  }
}

self.addEventListener('push', (event) => {
  const push = readPush(event.data);
  const asks = push.acknowledgeUrl !== null;
  const options = {
    body: push.body,
    data: { url: push.url, notificationIds: push.notificationIds, acknowledgeUrl: push.acknowledgeUrl },
    icon: '/icon-192.png',
    badge: '/icon-192.png',
    // Urgent ones (call tree, urgent announcements) stay until the person acts.
    requireInteraction: push.urgent,
  };
  if (push.actions.length > 0) options.actions = push.actions;
  if (push.tag) {
    options.tag = push.tag;
    // Urgent ones and an important post's reminder alert again when they replace one.
    options.renotify = push.urgent || asks;
  }
  event.waitUntil(self.registration.showNotification(push.title, options));
});

/** POSTs the Acknowledge link; answers whether the server took it. */
async function acknowledge(path) {
  try {
    const response = await fetch(path, { method: 'POST', credentials: 'omit', cache: 'no-store' });
    return response.ok;
  } catch {
    return false;
  }
}

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const path = event.notification.data?.url || '/';
  const url = new URL(path, self.location.origin).href;
  const acknowledgeUrl = event.notification.data?.acknowledgeUrl;
  event.waitUntil(
    (async () => {
      // Acknowledged from the button: nothing more to show. Otherwise the post opens, to do it there.
      if (event.action === 'acknowledge' && acknowledgeUrl && (await acknowledge(acknowledgeUrl))) return;
      const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
      const open = windows.find((client) => new URL(client.url).origin === self.location.origin);
      if (open) {
        // A full navigation would reload the app: the page's router takes the path instead.
        open.postMessage({ type: 'btalk.open', url: path });
        await open.focus().catch(() => undefined);
        return;
      }
      await self.clients.openWindow(url);
    })(),
  );
});

self.addEventListener('pushsubscriptionchange', (event) => {
  // Best effort: subscribe again with the same key; the app registers it with the server when the
  // person next opens the notification settings (the old endpoint is refused by the push service).
  const old = event.oldSubscription;
  const key = old?.options ? old.options.applicationServerKey : null;
  if (!key) return;
  event.waitUntil(
    self.registration.pushManager
      .subscribe({ userVisibleOnly: true, applicationServerKey: key })
      .catch(() => undefined),
  );
});
