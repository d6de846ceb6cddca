import { randomUUID } from 'node:crypto';
import { ErrorCode } from '@btalk/contracts';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { UserRow } from '../db/schema.ts';
import { BotConnectorStandIn } from '../test/botConnector.ts';
import { type BotIssuer, startBotIssuer, TEST_BOT_APP_ID } from '../test/botIssuer.ts';
import { buildOrg } from '../test/calltree.ts';
import { describeEachDatabase } from '../test/db.ts';
import { useTestServer } from '../test/server.ts';
import { signedIn } from '../test/session.ts';
import { as, dataOf } from '../test/topics.ts';
import { isTeamsConnected } from './conversations.ts';

const PATH = '/api/messages';
const TENANT = randomUUID();
const SERVICE_URL = 'https://smba.trafficmanager.net/apac/';
const BOT = `28:${TEST_BOT_APP_ID}`;

/** An activity from a person's 1:1 chat with the bot, as Teams sends it; `overrides` replace fields. */
function activityFrom(person: Pick<UserRow, 'subject' | 'id'>, overrides: Record<string, unknown> = {}) {
  return {
    type: 'installationUpdate',
    action: 'add',
    id: randomUUID(),
    channelId: 'msteams',
    serviceUrl: SERVICE_URL,
    timestamp: new Date().toISOString(),
    locale: 'en-US',
    from: { id: `29:${person.id}`, aadObjectId: person.subject, name: 'Someone' },
    recipient: { id: BOT, name: 'BTalk' },
    conversation: { id: `a:${person.id}`, conversationType: 'personal', tenantId: TENANT },
    channelData: { tenant: { id: TENANT } },
    ...overrides,
  };
}

describeEachDatabase('POST /api/messages (the Teams bot)', (kind) => {
  const env: Record<string, string> = {};
  let issuer: BotIssuer;
  let connector: BotConnectorStandIn;
  beforeAll(async () => {
    issuer = await startBotIssuer();
    connector = await new BotConnectorStandIn({
      appId: issuer.env.TEAMS_BOT_APP_ID,
      appPassword: issuer.env.TEAMS_BOT_APP_PASSWORD,
    }).start();
    Object.assign(env, issuer.env, { TEAMS_BOT_TOKEN_URL: connector.tokenUrl });
  });
  afterAll(async () => {
    await issuer.close();
    await connector.stop();
  });
  // Reads `env` in its own beforeAll, after the issuer above has filled it in.
  const server = useTestServer(kind, env);
  const db = () => server.ctx.db.kysely;

  /** Posts an activity as the Bot Framework does: its token, no x-api-key. */
  async function deliver(activity: unknown, token?: string | null) {
    const bearer = token === undefined ? await issuer.sign(SERVICE_URL) : token;
    return server.app.inject({
      method: 'POST',
      url: PATH,
      headers: bearer === null ? {} : { authorization: `Bearer ${bearer}` },
      payload: activity as object,
    });
  }
  const person = () => buildPerson();
  async function buildPerson(overrides: Partial<UserRow> = {}) {
    return (await signedIn(server, { subject: randomUUID(), tenant_id: TENANT, ...overrides })).user;
  }
  const conversations = (userId: string) =>
    db().selectFrom('teams_conversations').selectAll().where('user_id', '=', userId).execute();

  it('refuses activities without a valid Bot Framework token: 401, nothing recorded', async () => {
    const alice = await person();
    const install = activityFrom(alice);
    const unsigned = (claims: object) =>
      `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url')}.${Buffer.from(
        JSON.stringify(claims),
      ).toString('base64url')}.`;
    const now = Math.floor(Date.now() / 1000);
    const refused: Array<[string, string | null]> = [
      ['no token', null],
      ['not a JWT', 'not-a-token'],
      [
        'unsigned',
        unsigned({
          iss: env.TEAMS_BOT_TOKEN_ISSUER,
          aud: TEST_BOT_APP_ID,
          exp: now + 3600,
          serviceurl: SERVICE_URL,
        }),
      ],
      ['expired', await issuer.sign(SERVICE_URL, { expiresIn: -3600 })],
      ['without expiry', await issuer.sign(SERVICE_URL, { claims: { exp: undefined } })],
      ['wrong audience', await issuer.sign(SERVICE_URL, { claims: { aud: randomUUID() } })],
      ['wrong issuer', await issuer.sign(SERVICE_URL, { claims: { iss: 'https://sts.windows.net/evil/' } })],
      ['signed by a key the metadata does not publish', await issuer.sign(SERVICE_URL, { foreignKey: true })],
      ['issued for another service URL', await issuer.sign('https://evil.example/connector/')],
    ];
    for (const [why, token] of refused) {
      const answer = await deliver(install, token);
      expect(answer.statusCode, why).toBe(401);
      expect(answer.json(), why).toMatchObject({
        code: ErrorCode.unauthenticated,
        message: expect.any(String),
      });
    }
    // A key endorsed for Teams only: an activity of another channel is refused too.
    const otherChannel = await deliver({ ...install, channelId: 'webchat' });
    expect(otherChannel.statusCode).toBe(401);
    expect(await conversations(alice.id)).toEqual([]);

    // The same activity with a good token connects: what was refused was the token.
    expect((await deliver(install)).statusCode).toBe(200);
    expect(await isTeamsConnected(db(), alice.id)).toBe(true);
  });

  it('install connects the person (teamsConnected) and removal disconnects them', async () => {
    const me = await signedIn(server, { subject: randomUUID(), tenant_id: TENANT });
    const alice = me.user;
    const teamsConnected = async () =>
      dataOf<{ teamsConnected: boolean }>(await as(server, me).get('/api/me/notification-settings'))
        .teamsConnected;
    expect(await teamsConnected()).toBe(false);

    const added = await deliver(activityFrom(alice));
    expect(added.statusCode).toBe(200);
    expect(await teamsConnected()).toBe(true);
    expect(await conversations(alice.id)).toEqual([
      expect.objectContaining({
        service_url: SERVICE_URL,
        conversation_id: `a:${alice.id}`,
        tenant_id: TENANT,
        bot_id: BOT,
        removed_at: null,
      }),
    ]);

    const removed = await deliver(activityFrom(alice, { action: 'remove' }));
    expect(removed.statusCode).toBe(200);
    expect(await teamsConnected()).toBe(false);
    expect(await conversations(alice.id)).toEqual([
      expect.objectContaining({ removed_reason: 'removed in Teams', removed_at: expect.any(String) }),
    ]);

    // Added again after an upgrade: connected again, in the conversation Teams names now.
    await deliver(
      activityFrom(alice, {
        action: 'add-upgrade',
        conversation: { id: 'a:new', conversationType: 'personal', tenantId: TENANT },
      }),
    );
    expect(await teamsConnected()).toBe(true);
    expect((await conversations(alice.id))[0]).toMatchObject({ conversation_id: 'a:new', removed_at: null });
    await deliver(activityFrom(alice, { action: 'remove-upgrade' }));
    expect(await isTeamsConnected(db(), alice.id)).toBe(false);
  });

  it('takes the bot joining a 1:1 chat (conversationUpdate) as an install; others joining are not', async () => {
    const alice = await person();
    const someoneElse = await deliver(
      activityFrom(alice, {
        type: 'conversationUpdate',
        action: undefined,
        membersAdded: [{ id: `29:${alice.id}` }],
      }),
    );
    expect(someoneElse.statusCode).toBe(200);
    expect(await isTeamsConnected(db(), alice.id)).toBe(false);

    const botAdded = await deliver(
      activityFrom(alice, { type: 'conversationUpdate', action: undefined, membersAdded: [{ id: BOT }] }),
    );
    expect(botAdded.statusCode).toBe(200);
    expect(await isTeamsConnected(db(), alice.id)).toBe(true);

    await deliver(
      activityFrom(alice, { type: 'conversationUpdate', action: undefined, membersRemoved: [{ id: BOT }] }),
    );
    expect(await isTeamsConnected(db(), alice.id)).toBe(false);
  });

  it('acknowledges and ignores installs by people BTalk does not know, of another tenant, disabled, or not 1:1', async () => {
    const stranger = { id: randomUUID(), subject: randomUUID() };
    expect((await deliver(activityFrom(stranger))).statusCode).toBe(200);

    const elsewhere = await buildPerson({ tenant_id: randomUUID() });
    expect((await deliver(activityFrom(elsewhere))).statusCode).toBe(200);
    const disabled = await buildPerson({ disabled: 1, disabled_source: 'btalk' });
    expect((await deliver(activityFrom(disabled))).statusCode).toBe(200);

    // Added to a team's channel: that conversation is not the person's own.
    const alice = await person();
    const channel = activityFrom(alice, {
      conversation: { id: '19:channel@thread.tacv2', conversationType: 'channel', tenantId: TENANT },
    });
    expect((await deliver(channel)).statusCode).toBe(200);

    const rows = await db().selectFrom('teams_conversations').select('user_id').execute();
    const ids = rows.map((r) => r.user_id);
    for (const id of [stranger.id, elsewhere.id, disabled.id, alice.id]) expect(ids).not.toContain(id);
  });

  it('acknowledges unknown activity types and activities with missing or broken fields, writing nothing', async () => {
    const alice = await person();
    const full = activityFrom(alice);
    const { from: _from, ...noFrom } = full;
    const { conversation: _c, ...noConversation } = full;
    const { serviceUrl: _s, ...noServiceUrl } = full;
    const { recipient: _r, ...noRecipient } = full;
    const bodies: unknown[] = [
      {},
      [],
      { type: 42 },
      { ...full, type: 'typing' },
      { ...full, type: 'messageReaction' },
      { ...full, type: 'somethingNew' },
      { ...full, action: 'sideways' },
      { ...full, action: undefined },
      noFrom,
      noConversation,
      noServiceUrl,
      noRecipient,
      { ...full, from: { id: `29:${alice.id}` } },
      { ...full, from: 'alice' },
      { ...full, conversation: { conversationType: 'personal' } },
      { ...full, serviceUrl: 'javascript:alert(1)' },
      { ...full, type: 'conversationUpdate', action: undefined, membersAdded: 'everyone' },
      { ...full, type: 'conversationUpdate', action: undefined, membersAdded: [{ name: 'no id' }] },
      { ...full, type: 'conversationUpdate', action: undefined },
      { ...full, type: 'invoke', name: 'task/fetch', value: {} },
      { ...full, type: 'event', name: 'application/vnd.microsoft.meetingStart' },
    ];
    for (const body of bodies) {
      const answer = await deliver(body);
      expect(answer.statusCode, JSON.stringify(body)).toBe(200);
    }
    expect(await conversations(alice.id)).toEqual([]);
  });

  it('records a Safe answer from the card once for two presses, and updates the card', async () => {
    const admin = await signedIn(server, { role: 'admin' });
    const org = await buildOrg(server);
    const tree = await as(server, admin).post('/api/calltree/trees', {
      name: 'Head office',
      rootUserId: org.ceo.id,
    });
    const event = dataOf<{ id: string }>(
      await as(server, admin).post(
        `/api/calltree/trees/${dataOf<{ tree: { id: string } }>(tree).tree.id}/events`,
        {
          title: 'Outage',
          message: 'Power is out in building A.',
          kind: 'real',
        },
      ),
    );
    const press = () =>
      deliver(
        activityFrom(org.c1, {
          type: 'invoke',
          name: 'adaptiveCard/action',
          action: undefined,
          value: {
            action: {
              type: 'Action.Execute',
              verb: 'calltree.answer',
              data: { eventId: event.id, optionId: 'safe', answerId: 'card-answer-0001' },
            },
          },
        }),
      );
    for (const answer of [await press(), await press()]) {
      expect(answer.statusCode).toBe(200);
      expect(answer.json()).toMatchObject({
        statusCode: 200,
        type: 'application/vnd.microsoft.card.adaptive',
        value: { type: 'AdaptiveCard' },
      });
    }
    const answers = await db()
      .selectFrom('call_answers')
      .selectAll()
      .where('event_id', '=', event.id)
      .execute();
    expect(answers).toEqual([
      expect.objectContaining({ user_id: org.c1.id, answered_by: org.c1.id, status: 'safe', on_behalf: 0 }),
    ]);
  });

  it('acknowledges an important post from its card (Action.Execute) and answers the same card for two presses', async () => {
    const author = await signedIn(server);
    const reader = await buildPerson();
    const topic = dataOf<{ id: string }>(
      await as(server, author).post('/api/topics', { title: 'Safety', visibility: 'organisation' }),
    );
    const post = dataOf<{ id: string }>(
      await as(server, author).post(`/api/topics/${topic.id}/posts`, {
        clientId: randomUUID(),
        body: 'Drill',
      }),
    );
    expect(
      (await as(server, author).put(`/api/posts/${post.id}/announcement`, { urgent: true })).statusCode,
    ).toBe(200);
    const press = () =>
      deliver(
        activityFrom(reader, {
          type: 'invoke',
          name: 'adaptiveCard/action',
          action: undefined,
          value: {
            action: { type: 'Action.Execute', verb: 'announcement.acknowledge', data: { postId: post.id } },
          },
        }),
      );
    const first = await press();
    const second = await press();
    for (const answer of [first, second]) {
      expect(answer.statusCode).toBe(200);
      expect(answer.json()).toMatchObject({
        statusCode: 200,
        type: 'application/vnd.microsoft.card.adaptive',
        value: { type: 'AdaptiveCard' },
      });
    }
    expect(JSON.stringify(first.json().value)).toMatch(/Acknowledged at \d\d:\d\d\./);
    expect(second.json().value).toEqual(first.json().value);
    const rows = await db()
      .selectFrom('announcement_recipients')
      .selectAll()
      .where('post_id', '=', post.id)
      .where('user_id', '=', reader.id)
      .execute();
    expect(rows).toEqual([expect.objectContaining({ acknowledged_at: expect.any(String) })]);
  });

  it('answers a message typed to the bot with the help card, in Thai for a Thai person', async () => {
    const alice = await buildPerson({ locale: 'th' });
    const conversationId = `a:help-${alice.id}`;
    const message = activityFrom(alice, {
      type: 'message',
      action: undefined,
      text: 'hello?',
      serviceUrl: connector.serviceUrl,
      conversation: { id: conversationId, conversationType: 'personal', tenantId: TENANT },
    });
    const answer = await deliver(message, await issuer.sign(connector.serviceUrl));
    expect(answer.statusCode).toBe(200);
    const [reply] = connector.activitiesOf(conversationId);
    expect(reply).toMatchObject({
      type: 'message',
      replyToId: message.id,
      attachments: [
        { contentType: 'application/vnd.microsoft.card.adaptive', content: { type: 'AdaptiveCard' } },
      ],
    });
    const card = JSON.stringify(reply);
    expect(card).toContain('ปิดกระดิ่ง');
    expect(card).toContain(`${server.ctx.config.publicUrl}/settings/notifications`);

    // A connector that refuses: still acknowledged (a help card is not worth a retry), nothing breaks.
    connector.gone(conversationId);
    expect((await deliver(message, await issuer.sign(connector.serviceUrl))).statusCode).toBe(200);
  });

  it('answers a card action of someone BTalk does not know with a card saying so', async () => {
    const stranger = { id: randomUUID(), subject: randomUUID() };
    const answer = await deliver(
      activityFrom(stranger, {
        type: 'invoke',
        name: 'adaptiveCard/action',
        action: undefined,
        locale: 'th-TH',
        value: { action: { type: 'Action.Execute', verb: 'post.mute', data: { postId: randomUUID() } } },
      }),
    );
    expect(answer.statusCode).toBe(200);
    const body = answer.json();
    expect(body).toMatchObject({ statusCode: 200, type: 'application/vnd.microsoft.card.adaptive' });
    expect(JSON.stringify(body.value)).toContain('BTalk ยังไม่รู้จักคุณ');

    const noVerb = await deliver(
      activityFrom(stranger, {
        type: 'invoke',
        name: 'adaptiveCard/action',
        value: { action: { data: {} } },
      }),
    );
    expect(noVerb.statusCode).toBe(200);
    expect(noVerb.json()).toMatchObject({ statusCode: 400, type: 'application/vnd.microsoft.error' });
  });
});

describeEachDatabase('POST /api/messages without a bot configured', (kind) => {
  const server = useTestServer(kind);

  it('is not there: a 404 in the envelope, with or without x-api-key', async () => {
    for (const answer of [
      await server.app.inject({ method: 'POST', url: PATH, payload: { type: 'message' } }),
      await server.request({ method: 'POST', url: PATH, payload: { type: 'message' } }),
    ]) {
      expect(answer.statusCode).toBe(404);
      expect(answer.json().code).toBe(ErrorCode.notFound);
    }
  });
});

describeEachDatabase('POST /api/messages when the Bot Framework keys cannot be read', (kind) => {
  const env: Record<string, string> = {};
  let issuer: BotIssuer;
  beforeAll(async () => {
    issuer = await startBotIssuer();
    // Nothing listens on the discard port: the metadata cannot be fetched.
    Object.assign(env, issuer.env, {
      TEAMS_BOT_OPENID_METADATA_URL: 'http://127.0.0.1:9/v1/.well-known/openidconfiguration',
    });
  });
  afterAll(() => issuer.close());
  const server = useTestServer(kind, env);

  it('answers 503 (the Bot Framework sends again later), never a 500, and records nothing', async () => {
    const alice = await signedIn(server, { subject: randomUUID(), tenant_id: TENANT });
    const answer = await server.app.inject({
      method: 'POST',
      url: PATH,
      headers: { authorization: `Bearer ${await issuer.sign(SERVICE_URL)}` },
      payload: activityFrom(alice.user),
    });
    expect(answer.statusCode).toBe(503);
    expect(answer.json()).toMatchObject({ code: ErrorCode.unavailable });
    expect(await isTeamsConnected(server.ctx.db.kysely, alice.user.id)).toBe(false);
  });
});
