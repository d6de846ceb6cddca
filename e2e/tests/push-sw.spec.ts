import { expect, test } from '../fixtures.ts';
import { signInAs } from '../session.ts';

/**
 * Chromium cannot reach a real push service here: the push message is handed to the app's service
 * worker through the DevTools protocol (`ServiceWorker.deliverPushMessage`), as a push service would.
 */
test('the service worker shows a browser notification for a push message', async ({ browser, baseURL }) => {
  const base = baseURL ?? '';
  const context = await browser.newContext({ baseURL: base });
  await context.grantPermissions(['notifications'], { origin: base });
  const page = await context.newPage();
  try {
    await signInAs(page, base, 'Malee Push');
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
    });

    const cdp = await context.newCDPSession(page);
    const registrationId = new Promise<string>((resolve) => {
      cdp.on('ServiceWorker.workerRegistrationUpdated', ({ registrations }) => {
        const ours = registrations.find((r) => !r.isDeleted && r.scopeURL.startsWith(base));
        if (ours) resolve(ours.registrationId);
      });
    });
    await cdp.send('ServiceWorker.enable');
    const payload = {
      title: 'Somchai mentioned you in Safety drills',
      body: 'Please check the assembly point',
      url: '/calltree',
      tag: 'post-p1',
      urgent: false,
      notificationIds: ['n1'],
    };
    await cdp.send('ServiceWorker.deliverPushMessage', {
      origin: base,
      registrationId: await registrationId,
      data: JSON.stringify(payload),
    });

    await expect
      .poll(() =>
        page.evaluate(async () => {
          const registration = await navigator.serviceWorker.ready;
          const shown = await registration.getNotifications();
          return shown.map((n) => ({ title: n.title, body: n.body, tag: n.tag, data: n.data }));
        }),
      )
      .toEqual([
        {
          title: payload.title,
          body: payload.body,
          tag: payload.tag,
          // No Acknowledge action: only important posts' pushes carry an acknowledge link.
          data: { url: payload.url, notificationIds: ['n1'], acknowledgeUrl: null },
        },
      ]);

    // A click on it: the open BTalk tab is focused and shows the notification's page (no reload).
    // The browser's own click cannot be made here: the worker's handler gets the event instead.
    const worker = context.serviceWorkers()[0] ?? (await context.waitForEvent('serviceworker'));
    await worker.evaluate(async () => {
      const scope = self as unknown as {
        registration: ServiceWorkerRegistration;
        dispatchEvent(event: Event): boolean;
      };
      const [shown] = await scope.registration.getNotifications();
      const Click = (globalThis as unknown as { NotificationEvent: typeof Event }).NotificationEvent;
      try {
        scope.dispatchEvent(
          new (Click as unknown as new (type: string, init: unknown) => Event)('notificationclick', {
            notification: shown,
          }),
        );
      } catch {
        // A made-up event may not wait (waitUntil is for the browser's own): the handler ran anyway.
      }
    });
    await expect(page).toHaveURL(/\/calltree$/);
    await expect(page.getByRole('heading', { name: 'Call tree', level: 1 })).toBeVisible();

    // A message that is not JSON still shows a notification (browsers require one per push).
    await cdp.send('ServiceWorker.deliverPushMessage', {
      origin: base,
      registrationId: await registrationId,
      data: 'not json',
    });
    await expect
      .poll(() =>
        page.evaluate(async () => {
          const registration = await navigator.serviceWorker.ready;
          return (await registration.getNotifications()).map((n) => n.title);
        }),
      )
      .toContain('BTalk');
  } finally {
    await context.close();
  }
});
