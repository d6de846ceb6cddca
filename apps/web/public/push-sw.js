/*
 * BTalk's push notifications, loaded into the generated service worker (vite.config.ts:
 * `workbox.importScripts`). Plain JavaScript: it is copied as it is, not bundled.
 *
 * A push message is JSON {title, body, url, tag, urgent, notificationIds} (the server's push channel).
 * Clicking the notification focuses an open BTalk window and shows the url there, or opens a window.
 */

/** What is shown when a push message cannot be read (a notification must still be shown). */
const FALLBACK = { title: 'BTalk', body: '', url: '/', tag: undefined, urgent: false, notificationIds: [] };

/** The push message's JSON, or the fallback when it is missing or not JSON. */
function readPush(data) {
  if (!data) return FALLBACK;
  try {
    const value = data.json();
    if (!value || typeof value !== 'object') return FALLBACK;
    return {
      title: typeof value.title === 'string' && value.title ? value.title : FALLBACK.title,
      body: typeof value.body === 'string' ? value.body : '',
      url: typeof value.url === 'string' && value.url.startsWith('/') ? value.url : '/',
      tag: typeof value.tag === 'string' && value.tag ? value.tag : undefined,
      urgent: value.urgent === true,
      notificationIds: Array.isArray(value.notificationIds) ? value.notificationIds : [],
    };
  } catch {
    return FALLBACK;
  }
}

self.addEventListener('push', (event) => {
  const push = readPush(event.data);
  const options = {
    body: push.body,
    data: { url: push.url, notificationIds: push.notificationIds },
    icon: '/icon-192.png',
    badge: '/icon-192.png',
    // Urgent ones (call tree) stay until the person acts, and alert again when they replace one.
    requireInteraction: push.urgent,
  };
  if (push.tag) {
    options.tag = push.tag;
    options.renotify = push.urgent;
  }
  event.waitUntil(self.registration.showNotification(push.title, options));
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const path = event.notification.data?.url || '/';
  const url = new URL(path, self.location.origin).href;
  event.waitUntil(
    (async () => {
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
