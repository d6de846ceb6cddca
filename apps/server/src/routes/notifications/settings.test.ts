import { ErrorCode, type NotificationSettingsView } from '@btalk/contracts';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS, parseSettings } from '../../notifications/settings.ts';
import { disconnect, saveConversation } from '../../teams/conversations.ts';
import { describeEachDatabase } from '../../test/db.ts';
import { useTestServer } from '../../test/server.ts';
import { type SignedIn, signedIn } from '../../test/session.ts';
import { as, dataOf } from '../../test/topics.ts';

const URL = '/api/me/notification-settings';

describeEachDatabase('GET and PATCH /api/me/notification-settings', (kind) => {
  const server = useTestServer(kind);

  const settingsOf = async (who: SignedIn) =>
    dataOf<NotificationSettingsView>(await as(server, who).get(URL));
  const patch = (who: SignedIn, body: unknown) => as(server, who).patch(URL, body);
  const fieldsOf = (res: { json(): { details: { field: string }[] } }) =>
    res.json().details.map((d) => d.field);

  it('require authentication', async () => {
    for (const res of [await as(server, null).get(URL), await as(server, null).patch(URL, {})]) {
      expect(res.statusCode).toBe(401);
      expect(res.json().code).toBe(ErrorCode.unauthenticated);
    }
  });

  it('wait for the terms of use like the rest of the app', async () => {
    const newcomer = await signedIn(server, {}, { acceptedTerms: false });
    const res = await as(server, newcomer).get(URL);
    expect(res.json().code).toBe(ErrorCode.termsNotAccepted);
  });

  it('answers the defaults and what this server offers until the person changes anything', async () => {
    const me = await signedIn(server);
    const view = await settingsOf(me);
    expect(view).toEqual({
      ...DEFAULT_SETTINGS,
      // WEB_PUSH is on by default (keys made in memory); no SMTP_URL, no Teams bot yet.
      available: { push: true, email: false, teams: false },
      teamsConnected: false,
      vapidPublicKey: server.ctx.notifications.vapid!.publicKey,
      pushSubscriptions: 0,
    });
    expect(view.vapidPublicKey).toMatch(/^[A-Za-z0-9_-]{87}$/);
  });

  it('merges changes part by part, keeps them, and touches nobody else', async () => {
    const me = await signedIn(server);
    const other = await signedIn(server);
    const quietHours = { enabled: true, start: '21:30', end: '06:00', timeZone: 'Europe/London' };
    const first = dataOf<NotificationSettingsView>(
      await patch(me, { channels: { push: true }, kinds: { post: false }, quietHours }),
    );
    expect(first).toMatchObject({
      channels: { push: true, email: true, teams: true },
      kinds: { mention: true, comment: true, post: false, topicAdded: true },
      quietHours,
      available: { push: true, email: false, teams: false },
    });
    const second = dataOf<NotificationSettingsView>(await patch(me, { channels: { email: false } }));
    expect(second.channels).toEqual({ push: true, email: false, teams: true });
    expect(second.kinds.post).toBe(false);
    expect(second.quietHours).toEqual(quietHours);
    expect(await settingsOf(me)).toEqual(second);
    // An empty change changes nothing.
    expect(dataOf(await patch(me, {}))).toEqual(second);
    expect((await settingsOf(other)).channels).toEqual(DEFAULT_SETTINGS.channels);
  });

  it('counts my subscribed browsers, not other people’s', async () => {
    const me = await signedIn(server);
    const other = await signedIn(server);
    const db = server.ctx.db.kysely;
    for (const [who, n] of [
      [me, 2],
      [other, 1],
    ] as const) {
      for (let i = 0; i < n; i++) {
        await db
          .insertInto('push_subscriptions')
          .values({
            id: `${who.user.id}-${i}`,
            user_id: who.user.id,
            endpoint: `https://push.example.test/${who.user.id}/${i}`,
            p256dh: 'p',
            auth: 'a',
            created_at: new Date().toISOString(),
            last_success_at: null,
          })
          .execute();
      }
    }
    expect((await settingsOf(me)).pushSubscriptions).toBe(2);
    expect((await settingsOf(other)).pushSubscriptions).toBe(1);
  });

  it('names unknown keys, bad time zones and bad times, and changes nothing', async () => {
    const me = await signedIn(server);
    const unknown = await patch(me, { sms: true });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().code).toBe(ErrorCode.validation);
    expect(fieldsOf(unknown)).toEqual(['body.sms']);
    expect(fieldsOf(await patch(me, { channels: { pigeon: true } }))).toEqual(['body.channels.pigeon']);
    expect(fieldsOf(await patch(me, { kinds: { callStarted: false } }))).toEqual(['body.kinds.callStarted']);

    const quiet = { enabled: true, start: '22:00', end: '07:00', timeZone: 'Asia/Bangkok' };
    const zone = await patch(me, { quietHours: { ...quiet, timeZone: 'Mars/Olympus_Mons' } });
    expect(zone.statusCode).toBe(400);
    expect(zone.json().details).toEqual([
      { field: 'body.quietHours.timeZone', reason: expect.stringContaining('time zone') },
    ]);
    const time = await patch(me, { quietHours: { ...quiet, start: '25:00', end: '7:00' } });
    expect(time.statusCode).toBe(400);
    expect(fieldsOf(time)).toEqual(['body.quietHours.start', 'body.quietHours.end']);
    const partial = await patch(me, { quietHours: { enabled: false } });
    expect(partial.statusCode).toBe(400);
    expect(fieldsOf(partial)).toEqual(expect.arrayContaining(['body.quietHours.start']));
    const notBoolean = await patch(me, { channels: { push: 'yes' } });
    expect(fieldsOf(notBoolean)).toEqual(['body.channels.push']);

    const dismissed = await patch(me, { teamsPromptDismissed: 'yes' });
    expect(dismissed.statusCode).toBe(400);
    expect(fieldsOf(dismissed)).toEqual(['body.teamsPromptDismissed']);

    expect(await settingsOf(me)).toMatchObject(DEFAULT_SETTINGS);
  });

  it('keep the Teams dialog closed once the person closes it, for them only', async () => {
    const me = await signedIn(server);
    const other = await signedIn(server);
    expect((await settingsOf(me)).teamsPromptDismissed).toBe(false);
    const closed = dataOf<NotificationSettingsView>(await patch(me, { teamsPromptDismissed: true }));
    expect(closed.teamsPromptDismissed).toBe(true);
    // Other changes keep it, and the next read (another device) sees it.
    await patch(me, { kinds: { post: false } });
    expect(await settingsOf(me)).toMatchObject({ teamsPromptDismissed: true, kinds: { post: false } });
    expect((await settingsOf(other)).teamsPromptDismissed).toBe(false);
  });

  it('tell whether the person has added BTalk in Teams (user_enable) from the bot’s conversation', async () => {
    const me = await signedIn(server);
    const other = await signedIn(server);
    const db = server.ctx.db.kysely;
    await saveConversation(db, {
      userId: me.user.id,
      tenantId: 'tenant',
      serviceUrl: 'https://smba.example.test/',
      conversationId: `a:${me.user.id}`,
      botId: '28:bot',
    });
    expect((await settingsOf(me)).teamsConnected).toBe(true);
    expect((await settingsOf(other)).teamsConnected).toBe(false);
    // A PATCH answers the same truth.
    expect(dataOf<NotificationSettingsView>(await patch(me, {})).teamsConnected).toBe(true);
    await disconnect(db, me.user.id, 'removed');
    expect((await settingsOf(me)).teamsConnected).toBe(false);
  });
});

describeEachDatabase('GET /api/me/notification-settings with a Teams bot', (kind) => {
  const server = useTestServer(kind, {
    TEAMS_BOT_APP_ID: '00000000-0000-4000-8000-0000000000b0',
    TEAMS_BOT_APP_PASSWORD: 'bot secret',
  });

  it('offers Teams when the server has a bot', async () => {
    const me = await signedIn(server);
    const view = dataOf<NotificationSettingsView>(await as(server, me).get(URL));
    expect(view.available.teams).toBe(true);
    expect(view.teamsConnected).toBe(false);
  });
});

describe('stored notification settings', () => {
  it('read settings stored before the Teams dialog existed as not dismissed', () => {
    const stored = JSON.stringify({ channels: { email: false } });
    expect(parseSettings(stored)).toMatchObject({ teamsPromptDismissed: false, channels: { email: false } });
  });
});
