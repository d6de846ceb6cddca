import { ErrorCode } from '@btalk/contracts';
import { describe, expect, it } from 'vitest';
import { eventsSince } from '../../events/eventLog.ts';
import { describeEachDatabase } from '../../test/db.ts';
import { useTestServer } from '../../test/server.ts';
import { signedIn } from '../../test/session.ts';
import { as, buildPost, buildTopic, dataOf } from '../../test/topics.ts';

describeEachDatabase('topics API', (kind) => {
  const server = useTestServer(kind);

  describe('POST /api/topics', () => {
    it('requires authentication', async () => {
      const res = await as(server, null).post('/api/topics', { title: 'x', visibility: 'organisation' });
      expect(res.statusCode).toBe(401);
      expect(res.json().code).toBe(ErrorCode.unauthenticated);
    });

    it('names the bad fields', async () => {
      const alice = await signedIn(server);
      const res = await as(server, alice).post('/api/topics', {
        title: '',
        visibility: 'secret',
        coverColor: 'red',
      });
      expect(res.statusCode).toBe(400);
      const fields = res.json().details.map((d: { field: string }) => d.field);
      expect(fields).toEqual(expect.arrayContaining(['body.title', 'body.visibility', 'body.coverColor']));
    });

    it('refuses members who are not people of the directory', async () => {
      const alice = await signedIn(server);
      const res = await as(server, alice).post('/api/topics', {
        title: 'Team',
        visibility: 'members',
        memberIds: ['nobody'],
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().details[0].field).toBe('body.memberIds');
    });

    it('creates a topic with its creator as owner, events and abilities', async () => {
      const alice = await signedIn(server, { display_name: 'Alice' });
      const bob = await signedIn(server);
      const topic = dataOf<Record<string, unknown>>(
        await as(server, alice).post('/api/topics', {
          title: 'ประกาศ Announcements',
          description: 'ข่าวสารของบริษัท',
          visibility: 'members',
          coverColor: '#472F92',
          coverEmoji: '📣',
          memberIds: [bob.user.id],
        }),
      );
      expect(topic).toMatchObject({
        title: 'ประกาศ Announcements',
        visibility: 'members',
        coverColor: '#472F92',
        coverEmoji: '📣',
        creator: { id: alice.user.id, displayName: 'Alice' },
        memberCount: 2,
        postCount: 0,
        myRole: 'owner',
        following: true,
        unreadCount: 0,
        archivedAt: null,
        abilities: {
          edit: true,
          archive: true,
          manageMembers: true,
          post: true,
          pin: true,
          leave: true,
          follow: false,
        },
      });
      const events = await eventsSince(
        server.ctx.db.kysely,
        [`topic:${topic.id}`, `user:${bob.user.id}`],
        0,
        10,
      );
      // Bob is told he was added (his bell), in the same transaction.
      expect(events.map((e) => e.type)).toEqual([
        'topic.created',
        'me.membership_added',
        'notification.created',
      ]);
      const asBob = dataOf<Record<string, unknown>>(await as(server, bob).get(`/api/topics/${topic.id}`));
      expect(asBob).toMatchObject({ myRole: 'member', abilities: { edit: false, pin: false, post: true } });
    });

    it('is idempotent with a clientId, and 409 for a different topic with it', async () => {
      const alice = await signedIn(server);
      const body = { clientId: 'topic-client-1', title: 'Once', visibility: 'organisation' };
      const first = dataOf<{ id: string }>(await as(server, alice).post('/api/topics', body));
      const again = dataOf<{ id: string }>(await as(server, alice).post('/api/topics', body));
      expect(again.id).toBe(first.id);
      const other = await as(server, alice).post('/api/topics', { ...body, title: 'Twice' });
      expect(other.statusCode).toBe(409);
      expect(other.json().code).toBe(ErrorCode.conflict);
    });
  });

  describe('members-only topics', () => {
    it('are invisible to non-members on every topic route (404, not 403)', async () => {
      const alice = await signedIn(server);
      const eve = await signedIn(server);
      const secret = await buildTopic(server, alice, { visibility: 'members', title: 'Secret plans' });
      const eveApi = as(server, eve);
      const answers = await Promise.all([
        eveApi.get(`/api/topics/${secret.id}`),
        eveApi.patch(`/api/topics/${secret.id}`, { title: 'Mine now' }),
        eveApi.post(`/api/topics/${secret.id}/archive`),
        eveApi.put(`/api/topics/${secret.id}/follow`, { following: true }),
        eveApi.put(`/api/topics/${secret.id}/read`, { lastReadNumber: 1 }),
        eveApi.get(`/api/topics/${secret.id}/members`),
        eveApi.post(`/api/topics/${secret.id}/members`, { userIds: [eve.user.id] }),
        eveApi.delete(`/api/topics/${secret.id}/members/${alice.user.id}`),
        eveApi.get(`/api/topics/${secret.id}/posts`),
        eveApi.post(`/api/topics/${secret.id}/posts`, { clientId: 'eve-post-1', body: 'hi' }),
      ]);
      for (const res of answers) {
        expect(res.statusCode).toBe(404);
        expect(res.json().code).toBe(ErrorCode.notFound);
      }
      const unknown = await eveApi.get('/api/topics/no-such-topic');
      expect(unknown.json().message).toBe(answers[0]!.json().message);
      const list = dataOf<{ items: { id: string }[] }>(await eveApi.get('/api/topics?limit=100'));
      expect(list.items.map((t) => t.id)).not.toContain(secret.id);
    });
  });

  describe('GET /api/topics', () => {
    it('requires authentication and valid paging', async () => {
      expect((await as(server, null).get('/api/topics')).statusCode).toBe(401);
      const alice = await signedIn(server);
      const bad = await as(server, alice).get('/api/topics?limit=0&scope=everything');
      expect(bad.statusCode).toBe(400);
      expect(bad.json().details.map((d: { field: string }) => d.field)).toEqual(
        expect.arrayContaining(['query.limit', 'query.scope']),
      );
      const cursor = await as(server, alice).get('/api/topics?cursor=garbage');
      expect(cursor.statusCode).toBe(400);
      expect(cursor.json().details[0].field).toBe('query.cursor');
    });

    it('lists newest activity first with opaque cursors, and unread counts', async () => {
      const alice = await signedIn(server);
      const bob = await signedIn(server);
      const scope = `Paging ${Date.now()}`;
      const a = await buildTopic(server, alice, {
        title: `${scope} A`,
        visibility: 'members',
        memberIds: [bob.user.id],
      });
      const b = await buildTopic(server, alice, {
        title: `${scope} B`,
        visibility: 'members',
        memberIds: [bob.user.id],
      });
      const c = await buildTopic(server, alice, {
        title: `${scope} C`,
        visibility: 'members',
        memberIds: [bob.user.id],
      });
      await buildPost(server, alice, a.id, 'one');
      await buildPost(server, alice, a.id, 'two');
      // a has the newest activity now, then c, then b.
      const mine = (cursor?: string) =>
        as(server, bob).get(`/api/topics?scope=mine&limit=2${cursor ? `&cursor=${cursor}` : ''}`);
      const first = dataOf<{ items: { id: string; unreadCount: number }[]; nextCursor: string }>(
        await mine(),
      );
      expect(first.items.map((t) => t.id)).toEqual([a.id, c.id]);
      expect(first.items[0]!.unreadCount).toBe(2);
      const second = dataOf<{ items: { id: string }[]; nextCursor: string | null }>(
        await mine(first.nextCursor),
      );
      expect(second.items.map((t) => t.id)).toContain(b.id);
      const aliceView = dataOf<{ items: { id: string; unreadCount: number }[] }>(
        await as(server, alice).get('/api/topics?scope=mine&limit=100'),
      );
      expect(aliceView.items.find((t) => t.id === a.id)!.unreadCount).toBe(0);
    });

    it('lists archived topics apart', async () => {
      const alice = await signedIn(server);
      const t = await buildTopic(server, alice);
      dataOf(await as(server, alice).post(`/api/topics/${t.id}/archive`));
      const open = dataOf<{ items: { id: string }[] }>(
        await as(server, alice).get('/api/topics?scope=mine&limit=100'),
      );
      expect(open.items.map((x) => x.id)).not.toContain(t.id);
      const archived = dataOf<{ items: { id: string }[] }>(
        await as(server, alice).get('/api/topics?scope=mine&archived=true&limit=100'),
      );
      expect(archived.items.map((x) => x.id)).toContain(t.id);
    });
  });

  describe('PATCH, archive and unarchive', () => {
    it('lets owners and admins change a topic, and refuses others with 403', async () => {
      const alice = await signedIn(server);
      const bob = await signedIn(server);
      const admin = await signedIn(server, { role: 'admin' });
      const t = await buildTopic(server, alice);
      const refused = await as(server, bob).patch(`/api/topics/${t.id}`, { title: 'Bob was here' });
      expect(refused.statusCode).toBe(403);
      expect(refused.json().code).toBe(ErrorCode.forbidden);
      expect((await as(server, bob).post(`/api/topics/${t.id}/archive`)).statusCode).toBe(403);
      const changed = dataOf<{ title: string }>(
        await as(server, alice).patch(`/api/topics/${t.id}`, { title: 'Renamed' }),
      );
      expect(changed.title).toBe('Renamed');
      const byAdmin = dataOf<{ description: string }>(
        await as(server, admin).patch(`/api/topics/${t.id}`, { description: 'Set by an admin' }),
      );
      expect(byAdmin.description).toBe('Set by an admin');
      const empty = await as(server, alice).patch(`/api/topics/${t.id}`, {});
      expect(empty.statusCode).toBe(400);
    });

    it('makes an archived topic read-only until it is unarchived', async () => {
      const alice = await signedIn(server);
      const t = await buildTopic(server, alice);
      const archived = dataOf<{ archivedAt: string | null; abilities: { post: boolean } }>(
        await as(server, alice).post(`/api/topics/${t.id}/archive`),
      );
      expect(archived.archivedAt).not.toBeNull();
      expect(archived.abilities.post).toBe(false);
      const post = await as(server, alice).post(`/api/topics/${t.id}/posts`, {
        clientId: 'archived-post',
        body: 'x',
      });
      expect(post.statusCode).toBe(403);
      expect((await as(server, alice).patch(`/api/topics/${t.id}`, { title: 'x' })).statusCode).toBe(403);
      const back = dataOf<{ archivedAt: string | null }>(
        await as(server, alice).post(`/api/topics/${t.id}/unarchive`),
      );
      expect(back.archivedAt).toBeNull();
      const events = await eventsSince(server.ctx.db.kysely, [`topic:${t.id}`], 0, 10);
      expect(events.map((e) => e.type)).toEqual(['topic.created', 'topic.updated', 'topic.updated']);
    });
  });

  describe('PUT follow and read', () => {
    it('follows an organisation-wide topic; a members-only one is followed by membership', async () => {
      const alice = await signedIn(server);
      const bob = await signedIn(server);
      const t = await buildTopic(server, alice);
      const followed = dataOf<{ following: boolean }>(
        await as(server, bob).put(`/api/topics/${t.id}/follow`, { following: true }),
      );
      expect(followed.following).toBe(true);
      const mine = dataOf<{ items: { id: string }[] }>(
        await as(server, bob).get('/api/topics?scope=mine&limit=100'),
      );
      expect(mine.items.map((x) => x.id)).toContain(t.id);
      const unfollowed = dataOf<{ following: boolean }>(
        await as(server, bob).put(`/api/topics/${t.id}/follow`, { following: false }),
      );
      expect(unfollowed.following).toBe(false);
      const bad = await as(server, bob).put(`/api/topics/${t.id}/follow`, { following: 'yes' });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().details[0].field).toBe('body.following');
      const closed = await buildTopic(server, alice, { visibility: 'members' });
      expect(
        (await as(server, alice).put(`/api/topics/${closed.id}/follow`, { following: true })).statusCode,
      ).toBe(409);
    });

    it('moves the last-read marker forward only, and counts unread posts by others', async () => {
      const alice = await signedIn(server);
      const bob = await signedIn(server);
      const t = await buildTopic(server, alice);
      for (const body of ['1', '2', '3']) await buildPost(server, alice, t.id, body);
      await buildPost(server, bob, t.id, 'mine');
      const before = dataOf<{ unreadCount: number; lastReadNumber: number }>(
        await as(server, bob).get(`/api/topics/${t.id}`),
      );
      expect(before).toMatchObject({ unreadCount: 3, lastReadNumber: 0 });
      const read = dataOf(await as(server, bob).put(`/api/topics/${t.id}/read`, { lastReadNumber: 2 }));
      expect(read).toEqual({ topicId: t.id, lastReadNumber: 2, unreadCount: 1 });
      const back = dataOf(await as(server, bob).put(`/api/topics/${t.id}/read`, { lastReadNumber: 1 }));
      expect(back).toMatchObject({ lastReadNumber: 2 });
      const past = dataOf(await as(server, bob).put(`/api/topics/${t.id}/read`, { lastReadNumber: 99 }));
      expect(past).toEqual({ topicId: t.id, lastReadNumber: 4, unreadCount: 0 });
      const bad = await as(server, bob).put(`/api/topics/${t.id}/read`, { lastReadNumber: -1 });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().details[0].field).toBe('body.lastReadNumber');
      const events = await eventsSince(server.ctx.db.kysely, [`user:${bob.user.id}`], 0, 10);
      expect(events.map((e) => e.type)).toEqual(['me.read_updated', 'me.read_updated']);
    });
  });
});
