import webPush from 'web-push';
import type { Config } from '../config/index.ts';
import { keptSecret } from '../files/dataDir.ts';

/** The server's VAPID identity for Web Push (RFC 8292). */
export interface VapidKeys {
  /** Base64url P-256 public key: the browser's `applicationServerKey`. */
  publicKey: string;
  /** Base64url P-256 private key: signs each push request. */
  privateKey: string;
  /** Contact for push services (`mailto:` or `https:`). */
  subject: string;
}

/**
 * The VAPID keys: from VAPID_PUBLIC_KEY / VAPID_PRIVATE_KEY when set, else made once and kept in
 * `DATA_DIR/vapid.json` (readable by the server only), so that browsers stay subscribed across
 * restarts. Null when WEB_PUSH is off.
 */
export function loadVapidKeys(config: Config): VapidKeys | null {
  if (!config.features.webPush) return null;
  const subject = config.notifications.vapidSubject;
  if (config.notifications.vapidKeys) return { ...config.notifications.vapidKeys, subject };
  if (config.dataDir === ':memory:') return { ...webPush.generateVAPIDKeys(), subject };
  const kept = JSON.parse(
    keptSecret(config.dataDir, 'vapid.json', () => JSON.stringify(webPush.generateVAPIDKeys())),
  ) as { publicKey: string; privateKey: string };
  return { publicKey: kept.publicKey, privateKey: kept.privateKey, subject };
}
