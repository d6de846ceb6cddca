/**
 * The local push service of bench/notifications.ts in a process of its own (a push service is another
 * machine in real life): it makes browser subscriptions when asked, checks and decrypts what it
 * receives, and reports how many messages it accepted. Talks to its parent over IPC.
 */
import { startPushService } from '../apps/server/src/test/pushService.ts';

const service = await startPushService();
process.on('message', (raw) => {
  const request = raw as
    | { type: 'subscribe'; count: number; key: string }
    | { type: 'count' }
    | { type: 'close' };
  if (request.type === 'subscribe') {
    const made = Array.from({ length: request.count }, () => {
      const browser = service.subscribe(request.key);
      return { endpoint: browser.endpoint, keys: browser.keys };
    });
    process.send?.({ type: 'subscribed', made });
  } else if (request.type === 'count') {
    const first = service.messages[0]?.json ?? null;
    process.send?.({
      type: 'count',
      accepted: service.messages.length,
      refused: service.refusals.length,
      first,
    });
  } else {
    void service.close().then(() => process.exit(0));
  }
});
process.send?.({ type: 'ready' });
