import { ErrorCode, type EventMessage, NotificationKind } from '@btalk/contracts';
import { afterEach, beforeAll, expect, it } from 'vitest';
import { newId } from '../../ids.ts';
import { settle, TestClient } from '../../realtime/testing.ts';
import { PNG, upload, uploaded } from '../../test/attachments.ts';
import { describeEachDatabase } from '../../test/db.ts';
import { useTestServer } from '../../test/server.ts';
import { type SignedIn, signedIn } from '../../test/session.ts';
import { as, buildPost, buildTopic, dataOf } from '../../test/topics.ts';

interface Conversation {
  id: string;
  title: string;
  visibility: string;
  memberCount: number;
  myRole: string | null;
  unreadCount: number;
  participants?: { id: string; displayName: string }[];
  abilities: Record<string, unknown>;
}

interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

interface Listed {
  items: { kind: string; title: string; data: Record<string, unknown> }[];
}

/** A word no other test writes: tests share one server per database. */
const unique = (prefix: string) =>
  `${prefix}${newId()
    .replace(/[^a-z0-9]/gi, '')
    .slice(-8)
    .toLowerCase()}`;

describeEachDatabase('direct conversations API', (kind) => {
  const server = useTestServer(kind);
  const start = (who: SignedIn | null, userIds: string[]) =>
    as(server, who).post('/api/conversations', { userIds });

  it('requires authentication', async () => {
    const alice = await signedIn(server);
    expect((await start(null, [alice.user.id])).statusCode).toBe(401);
    expect((await as(server, null).get('/api/conversations')).statusCode).toBe(401);
  });

  it('gives the same people the same conversation, in any order, also when asked at once', async () => {
    const alice = await signedIn(server, { display_name: 'Alice' });
    const bob = await signedIn(server, { display_name: 'Bob' });
    const carol = await signedIn(server, { display_name: 'Carol' });
    const answers = await Promise.all([
      start(alice, [bob.user.id, carol.user.id]),
      start(bob, [carol.user.id, alice.user.id]),
      start(carol, [alice.user.id, bob.user.id]),
      start(alice, [carol.user.id, bob.user.id]),
    ]);
    const made = answers.map((res) => dataOf<Conversation>(res));
    expect(new Set(made.map((c) => c.id)).size).toBe(1);
    expect(made[0]).toMatchObject({
      visibility: 'direct',
      title: 'Alice, Bob, Carol',
      memberCount: 3,
      myRole: 'member',
      abilities: expect.objectContaining({
        post: true,
        edit: false,
        archive: false,
        manageMembers: false,
        leave: false,
        pin: false,
        follow: false,
      }),
    });
    expect(made[0]!.participants?.map((p) => p.displayName)).toEqual(['Alice', 'Bob', 'Carol']);
    const count = await server.ctx.db.kysely
      .selectFrom('topics')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('id', '=', made[0]!.id)
      .executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(1);
    // Two of the three are another conversation.
    const pair = dataOf<Conversation>(await start(alice, [bob.user.id]));
    expect(pair.id).not.toBe(made[0]!.id);
    expect(dataOf<Conversation>(await start(bob, [alice.user.id])).id).toBe(pair.id);
  });

  it('takes 2 to 8 people and refuses bad input with the field and the reason', async () => {
    const me = await signedIn(server);
    const others = await Promise.all(Array.from({ length: 8 }, () => signedIn(server)));
    const ids = others.map((o) => o.user.id);
    const eight = dataOf<Conversation>(await start(me, ids.slice(0, 7)));
    expect(eight.memberCount).toBe(8);

    const refused = async (userIds: unknown, reason: RegExp) => {
      const res = await as(server, me).post('/api/conversations', { userIds });
      expect(res.statusCode).toBe(400);
      expect(res.json().code).toBe(ErrorCode.validation);
      expect(res.json().details[0]).toMatchObject({ field: 'body.userIds' });
      expect(res.json().details[0].reason).toMatch(reason);
    };
    await refused(ids, /at most 8 people/);
    await refused([], /at least one/);
    await refused([me.user.id], /leave yourself out/);
    await refused([ids[0], me.user.id], /leave yourself out/);
    await refused([ids[0], ids[0]], /each person once/);
    await refused([newId()], /no active person/);
    await refused('nobody', /./);
    const gone = await signedIn(server, { disabled: 1 });
    await refused([gone.user.id], /no active person/);
  });

  it('keeps a conversation to its people: strangers get 404, participants cannot change who is in it', async () => {
    const alice = await signedIn(server);
    const bob = await signedIn(server);
    const stranger = await signedIn(server);
    const admin = await signedIn(server, { role: 'admin' });
    const c = dataOf<Conversation>(await start(alice, [bob.user.id]));
    await buildPost(server, alice, c.id, 'Just between us');

    for (const outsider of [stranger, admin]) {
      expect((await as(server, outsider).get(`/api/topics/${c.id}`)).statusCode).toBe(404);
      expect((await as(server, outsider).get(`/api/topics/${c.id}/posts`)).statusCode).toBe(404);
      expect((await as(server, outsider).get(`/api/topics/${c.id}/members`)).statusCode).toBe(404);
      const post = await as(server, outsider).post(`/api/topics/${c.id}/posts`, {
        clientId: newId(),
        body: 'Let me in',
      });
      expect(post.statusCode).toBe(404);
      expect(post.json().code).toBe(ErrorCode.notFound);
    }

    const forbidden = async (res: { statusCode: number; json: () => { code: number; message: string } }) => {
      expect(res.statusCode).toBe(403);
      expect(res.json().code).toBe(ErrorCode.forbidden);
    };
    await forbidden(
      await as(server, bob).post(`/api/topics/${c.id}/members`, { userIds: [stranger.user.id] }),
    );
    await forbidden(await as(server, bob).delete(`/api/topics/${c.id}/members/${alice.user.id}`));
    await forbidden(await as(server, bob).delete(`/api/topics/${c.id}/members/${bob.user.id}`));
    await forbidden(
      await as(server, alice).patch(`/api/topics/${c.id}/members/${bob.user.id}`, { role: 'owner' }),
    );
    await forbidden(await as(server, alice).patch(`/api/topics/${c.id}`, { title: 'Renamed' }));
    await forbidden(await as(server, alice).patch(`/api/topics/${c.id}`, { visibility: 'organisation' }));
    await forbidden(await as(server, alice).post(`/api/topics/${c.id}/archive`));
    const outsiderMention = await as(server, alice).post(`/api/topics/${c.id}/posts`, {
      clientId: newId(),
      body: `@[Stranger](user:${stranger.user.id}) look`,
      mentions: [stranger.user.id],
    });
    expect(outsiderMention.statusCode).toBe(400);
    expect(outsiderMention.json().details[0]).toMatchObject({
      field: 'body.mentions',
      reason: expect.stringMatching(/not in this conversation/),
    });
    const members = dataOf<Page<{ person: { id: string }; role: string }>>(
      await as(server, bob).get(`/api/topics/${c.id}/members`),
    );
    expect(members.items.map((m) => m.role)).toEqual(['member', 'member']);
    expect(members.items.map((m) => m.person.id).sort()).toEqual([alice.user.id, bob.user.id].sort());
  });

  it('lets its people write, react and read, with unread counts, and notifies each of them', async () => {
    const alice = await signedIn(server, { display_name: 'Alice' });
    const bob = await signedIn(server, { display_name: 'Bob' });
    const carol = await signedIn(server, { display_name: 'Carol' });
    const c = dataOf<Conversation>(await start(alice, [bob.user.id, carol.user.id]));
    const post = await buildPost(server, alice, c.id, 'Lunch at noon?');
    expect(
      (await as(server, bob).post(`/api/posts/${post.id}/reactions`, { clientId: newId(), emoji: '👍' }))
        .statusCode,
    ).toBe(200);
    await buildPost(server, bob, c.id, 'Yes!');

    const forBob = dataOf<Listed>(await as(server, bob).get('/api/notifications'));
    const told = forBob.items.filter((n) => n.data.topicId === c.id);
    expect(told).toEqual([
      expect.objectContaining({
        kind: NotificationKind.direct,
        title: 'Alice sent you a message',
        data: expect.objectContaining({ actorName: 'Alice', topicTitle: 'Alice, Bob, Carol', postNumber: 1 }),
      }),
    ]);
    const forCarol = dataOf<Listed>(await as(server, carol).get('/api/notifications'));
    expect(forCarol.items.filter((n) => n.data.topicId === c.id).map((n) => n.kind)).toEqual([
      NotificationKind.direct,
      NotificationKind.direct,
    ]);
    const forAlice = dataOf<Listed>(await as(server, alice).get('/api/notifications'));
    expect(forAlice.items.filter((n) => n.data.topicId === c.id).map((n) => n.data.actorName)).toEqual([
      'Bob',
    ]);

    // Muted: no message reaches Carol any more, but a mention of her still does.
    await as(server, carol).put(`/api/topics/${c.id}/notifications`, { level: 'muted' });
    await buildPost(server, alice, c.id, 'Quiet now');
    await buildPost(server, alice, c.id, `@[Carol](user:${carol.user.id}) one more thing`);
    const muted = dataOf<Listed>(await as(server, carol).get('/api/notifications'));
    expect(muted.items.filter((n) => n.data.topicId === c.id).map((n) => n.kind)).toEqual([
      NotificationKind.mention,
      NotificationKind.direct,
      NotificationKind.direct,
    ]);

    const mine = dataOf<Page<Conversation>>(await as(server, carol).get('/api/conversations'));
    expect(mine.items.find((i) => i.id === c.id)).toMatchObject({ unreadCount: 4, visibility: 'direct' });
    await as(server, carol).put(`/api/topics/${c.id}/read`, { lastReadNumber: 4 });
    const read = dataOf<Page<Conversation>>(await as(server, carol).get('/api/conversations'));
    expect(read.items.find((i) => i.id === c.id)).toMatchObject({ unreadCount: 0 });
  });

  it('takes files from its people only, and shows them to its people only', async () => {
    const alice = await signedIn(server);
    const bob = await signedIn(server);
    const stranger = await signedIn(server);
    const c = dataOf<Conversation>(await start(alice, [bob.user.id]));
    const [file] = await uploaded(server, alice, c.id, [
      { name: 'plan.png', content: PNG, type: 'image/png' },
    ]);
    const post = await buildPost(server, alice, c.id, 'The plan', { attachmentIds: [file!.id] });
    expect(post.attachments).toEqual([expect.objectContaining({ fileName: 'plan.png', kind: 'image' })]);
    expect((await as(server, bob).get(file!.url)).statusCode).toBe(200);
    expect((await as(server, stranger).get(file!.url)).statusCode).toBe(404);
    expect(
      (await upload(server, stranger, c.id, [{ name: 'x.png', content: PNG, type: 'image/png' }])).statusCode,
    ).toBe(404);
  });

  it('lists my conversations apart: never in the topic directory, Home’s topics or a stranger’s search', async () => {
    const alice = await signedIn(server, { display_name: 'Alice' });
    const bob = await signedIn(server, { display_name: 'Bob' });
    const stranger = await signedIn(server);
    const topic = await buildTopic(server, alice);
    const c = dataOf<Conversation>(await start(alice, [bob.user.id]));
    const word = unique('secret');
    await buildPost(server, alice, c.id, `The ${word} plan`);

    for (const who of [alice, bob, stranger]) {
      for (const scope of ['all', 'mine']) {
        const topics = dataOf<Page<Conversation>>(
          await as(server, who).get(`/api/topics?scope=${scope}&limit=100`),
        );
        expect(topics.items.map((t) => t.id)).not.toContain(c.id);
      }
    }
    const aliceTopics = dataOf<Page<Conversation>>(
      await as(server, alice).get('/api/topics?scope=mine&limit=100'),
    );
    expect(aliceTopics.items.map((t) => t.id)).toContain(topic.id);

    const bobs = dataOf<Page<Conversation>>(await as(server, bob).get('/api/conversations'));
    expect(bobs.items.map((i) => i.id)).toEqual([c.id]);
    expect(bobs.items[0]).toMatchObject({ title: 'Alice, Bob', unreadCount: 1 });
    expect(dataOf<Page<Conversation>>(await as(server, stranger).get('/api/conversations')).items).toEqual(
      [],
    );

    const search = async (who: SignedIn) =>
      dataOf<Page<{ topicId: string; topicTitle: string }>>(
        await as(server, who).get(`/api/search?q=${encodeURIComponent(word)}`),
      );
    expect((await search(stranger)).items).toEqual([]);
    expect((await search(bob)).items).toEqual([
      expect.objectContaining({ topicId: c.id, topicTitle: 'Alice, Bob' }),
    ]);
    // Searching inside the conversation names it by its people too; a stranger cannot name it.
    const inside = dataOf<{ filters: { topic: { id: string; title: string } } }>(
      await as(server, bob).get(`/api/search?q=${encodeURIComponent(word)}&topic=${c.id}`),
    );
    expect(inside.filters.topic).toEqual({ id: c.id, title: 'Alice, Bob' });
    expect((await as(server, stranger).get(`/api/search?q=${word}&topic=${c.id}`)).statusCode).toBe(400);
  });

  it('shows its people by their names of now: the title is never stored', async () => {
    const alice = await signedIn(server, { display_name: 'Alice' });
    const bob = await signedIn(server, { display_name: 'Bob' });
    const c = dataOf<Conversation>(await start(alice, [bob.user.id]));
    await server.ctx.db.kysely
      .updateTable('users')
      .set({ display_name: 'Robert' })
      .where('id', '=', bob.user.id)
      .execute();
    const again = dataOf<Conversation>(await as(server, alice).get(`/api/topics/${c.id}`));
    expect(again.title).toBe('Alice, Robert');
    expect(again.participants?.map((p) => p.displayName)).toEqual(['Alice', 'Robert']);
  });

  it('pages my conversations by latest activity', async () => {
    const me = await signedIn(server);
    const people = await Promise.all([1, 2, 3].map(() => signedIn(server)));
    const made: string[] = [];
    for (const p of people) made.push(dataOf<Conversation>(await start(me, [p.user.id])).id);
    await buildPost(server, me, made[0]!, 'Newest activity');
    const first = dataOf<Page<Conversation>>(await as(server, me).get('/api/conversations?limit=2'));
    expect(first.items.map((i) => i.id)).toEqual([made[0], made[2]]);
    const rest = dataOf<Page<Conversation>>(
      await as(server, me).get(`/api/conversations?limit=2&cursor=${encodeURIComponent(first.nextCursor!)}`),
    );
    expect(rest.items.map((i) => i.id)).toEqual([made[1]]);
    expect(rest.nextCursor).toBeNull();
  });
});

describeEachDatabase('direct conversations over realtime', (kind) => {
  const server = useTestServer(kind);
  const where = { url: '' };
  beforeAll(async () => {
    where.url = await server.app.listen({ port: 0, host: '127.0.0.1' });
  });
  const clients: TestClient[] = [];
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.close().catch(() => {})));
  });
  const connect = async (who: SignedIn) => {
    const c = new TestClient(where.url);
    clients.push(c);
    await c.hello(who.token, 'btalk-web-development-key');
    return c;
  };

  it('opens the conversation’s room to its people as it starts, and to nobody else', async () => {
    const alice = await signedIn(server);
    const bob = await signedIn(server);
    const stranger = await signedIn(server);
    const admin = await signedIn(server, { role: 'admin' });
    const bobSocket = await connect(bob);
    const strangerSocket = await connect(stranger);
    const adminSocket = await connect(admin);
    const c = dataOf<Conversation>(
      await as(server, alice).post('/api/conversations', { userIds: [bob.user.id] }),
    );
    await bobSocket.waitFor((m) => m.type === 'event' && m.name === 'me.membership_added');
    const post = await buildPost(server, alice, c.id, 'Only for Bob');
    const got = await bobSocket.waitFor<EventMessage>((m) => m.type === 'event' && m.name === 'post.created');
    expect(got.room).toBe(`topic:${c.id}`);
    await buildTopic(server, alice).then((t) => buildPost(server, alice, t.id, 'For everyone'));
    await strangerSocket.waitFor((m) => m.type === 'event' && m.name === 'post.created');
    await settle();
    for (const outsider of [strangerSocket, adminSocket]) {
      const rooms = outsider.events().map((e) => e.room);
      expect(rooms).not.toContain(`topic:${c.id}`);
      expect(JSON.stringify(outsider.events())).not.toContain(post.id);
    }
  });
});
