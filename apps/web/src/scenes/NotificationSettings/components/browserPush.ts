import type { PushSubscriptionRequest } from '@btalk/contracts';

/** How long to wait for the service worker before giving up (it is not registered in `vite dev`). */
const WORKER_TIMEOUT_MS = 10_000;

/** Whether this browser can receive push notifications from a web app at all. */
export function browserSupportsPush(): boolean {
  return (
    typeof window !== 'undefined' &&
    'serviceWorker' in navigator &&
    'PushManager' in window &&
    'Notification' in window
  );
}

/** The browser's notification permission, or null when it has none to give. */
export function notificationPermission(): NotificationPermission | null {
  return typeof Notification === 'undefined' ? null : Notification.permission;
}

/** The person did not allow notifications: `denied` (blocked) or `default` (the prompt was dismissed). */
export class PushPermissionError extends Error {
  override name = 'PushPermissionError';
  readonly permission: NotificationPermission;

  constructor(permission: NotificationPermission) {
    super(`notification permission is ${permission}`);
    this.permission = permission;
  }
}

/** A VAPID public key (base64url) as the bytes `PushManager.subscribe` takes. */
export function applicationServerKey(base64url: string): Uint8Array<ArrayBuffer> {
  const base64 = base64url.replace(/-/g, '+').replace(/_/g, '/');
  const padded = base64 + '='.repeat((4 - (base64.length % 4)) % 4);
  const raw = atob(padded);
  const bytes = new Uint8Array(new ArrayBuffer(raw.length));
  for (let i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i);
  return bytes;
}

async function serviceWorker(): Promise<ServiceWorkerRegistration> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error('the app’s service worker is not running: reload the page and try again')),
      WORKER_TIMEOUT_MS,
    );
  });
  try {
    return await Promise.race([navigator.serviceWorker.ready, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** This browser's current push subscription for the app, if any. */
export async function currentSubscription(): Promise<PushSubscription | null> {
  if (!browserSupportsPush()) return null;
  const registration = await navigator.serviceWorker.getRegistration();
  return (await registration?.pushManager.getSubscription()) ?? null;
}

/**
 * Asks for permission, then subscribes this browser with the server's VAPID key (a subscription made
 * with another key is replaced). Rejects with `PushPermissionError` when not allowed.
 */
export async function subscribeBrowser(vapidPublicKey: string): Promise<PushSubscriptionRequest> {
  const permission = await Notification.requestPermission();
  if (permission !== 'granted') throw new PushPermissionError(permission);
  const registration = await serviceWorker();
  const key = applicationServerKey(vapidPublicKey);
  let subscription = await registration.pushManager.getSubscription();
  const existingKey = subscription?.options.applicationServerKey;
  if (subscription && existingKey && !sameBytes(new Uint8Array(existingKey), key)) {
    await subscription.unsubscribe();
    subscription = null;
  }
  subscription ??= await registration.pushManager.subscribe({
    userVisibleOnly: true,
    applicationServerKey: key,
  });
  return subscription.toJSON() as PushSubscriptionRequest;
}

/** Unsubscribes this browser; answers the endpoint it had (to tell the server), or null. */
export async function unsubscribeBrowser(): Promise<string | null> {
  const subscription = await currentSubscription();
  if (!subscription) return null;
  const { endpoint } = subscription;
  await subscription.unsubscribe();
  return endpoint;
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((byte, i) => byte === b[i]);
}
