import type {
  AcknowledgementResult,
  AnnouncementPeoplePage,
  AnnouncementReport,
  EventMessage,
  PendingAnnouncementList,
  Post,
  PostPage,
  Topic,
} from '@btalk/contracts';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AnnouncementReminderJob } from '../../announcements/reminders.ts';
import { sendAutomaticReminder } from '../../commands/announcementReminder.ts';
import { eventsSince } from '../../events/eventLog.ts';
import { settle, TestClient } from '../../realtime/testing.ts';
import { buildOrg, headersFor, type Org } from '../../test/calltree.ts';
import { describeEachDatabase } from '../../test/db.ts';
import { buildUser } from '../../test/factories.ts';
import { type TestServer, useTestServer } from '../../test/server.ts';
import { type SignedIn, signedIn } from '../../test/session.ts';
import { as, buildPost, buildTopic, dataOf } from '../../test/topics.ts';

/** A person of `buildOrg` as `as()` takes them. */
async function signedInAs(server: TestServer, user: Org[keyof Org]): Promise<SignedIn> {
  const headers = await headersFor(server, user);
  return { user, token: headers.authorization.slice('Bearer '.length), headers };
}

const inMinutes = (minutes: number) => new Date(Date.now() + minutes * 60_000).toISOString();

describeEachDatabase('announcements API', (kind) => {
  const server = useTestServer(kind);
  const db = () => server.ctx.db.kysely;

  /** A members-only topic of an owner and two members, and a post of the owner. */
  async function setup(body = 'Read this **now**') {
    const owner = await signedIn(server, { display_name: 'Olive Owner' });
    const member = await signedIn(server, { display_name: 'Mia Member' });
    const other = await signedIn(server, { display_name: 'Otto Other', department: 'Finance' });
    const stranger = await signedIn(server);
    const topic = await buildTopic(server, owner, {
      visibility: 'members',
      memberIds: [member.user.id, other.user.id],
    });
    const post = await buildPost(server, owner, topic.id, body);
    return { owner, member, other, stranger, topic, post };
  }

  const mark = (who: SignedIn | null, postId: string, body: Record<string, unknown> = {}) =>
    as(server, who).put(`/api/posts/${postId}/announcement`, body);
  const ack = (who: SignedIn | null, postId: string) =>
    as(server, who).post(`/api/posts/${postId}/acknowledgement`);
  const report = (who: SignedIn | null, postId: string, query = '') =>
    as(server, who).get(`/api/posts/${postId}/announcement/report${query}`);

  describe('marking', () => {
    it('lets a topic owner mark their post; the post carries the request and the counts', async () => {
      const { owner, member, post } = await setup();
      const due = inMinutes(60);
      const marked = dataOf<Post>(
        await mark(owner, post.id, { urgent: true, dueAt: due, remindAfterMinutes: 30 }),
      );
      expect(marked.announcement).toMatchObject({
        urgent: true,
        dueAt: new Date(due).toISOString(),
        remindAfterMinutes: 30,
        totals: { audience: 2, seen: 0, acknowledged: 0, notYet: 2 },
      });
      expect(marked.acknowledgedAt).toBeNull();
      const seenByMember = dataOf<Post>(await as(server, member).get(`/api/posts/${post.id}`));
      expect(seenByMember.announcement?.totals.audience).toBe(2);
      expect(seenByMember.acknowledgedAt).toBeNull();
      const audit = await db()
        .selectFrom('audit_log')
        .select(['action', 'actor_id'])
        .where('target', '=', `post:${post.id}`)
        .execute();
      expect(audit).toEqual([{ action: 'announcement.marked', actor_id: owner.user.id }]);
    });

    it('refuses plain members, other people’s posts, deleted posts, archived topics and conversations', async () => {
      const { owner, member, topic, post } = await setup();
      const own = await buildPost(server, member, topic.id, 'Mine');
      const refused = await mark(member, own.id);
      expect(refused.statusCode).toBe(403);
      expect(refused.json().message).toMatch(/owners and admins/);
      const notTheAuthor = await mark(owner, own.id);
      expect(notTheAuthor.statusCode).toBe(403);
      expect(notTheAuthor.json().message).toMatch(/author/);

      const gone = await buildPost(server, owner, topic.id, 'Soon gone');
      await as(server, owner).delete(`/api/posts/${gone.id}`);
      expect((await mark(owner, gone.id)).statusCode).toBe(403);

      dataOf(await as(server, owner).post(`/api/topics/${topic.id}/archive`));
      const archived = await mark(owner, post.id);
      expect(archived.statusCode).toBe(403);
      expect(archived.json().message).toMatch(/archived/);

      const chat = dataOf<Topic>(
        await as(server, owner).post('/api/conversations', { userIds: [member.user.id] }),
      );
      const message = await buildPost(server, owner, chat.id, 'Just us');
      const direct = await mark(owner, message.id);
      expect(direct.statusCode).toBe(403);
      expect(direct.json().message).toMatch(/direct conversation/);
    });

    it('lets an admin mark their post in an organisation-wide topic: everyone enabled but the author is asked', async () => {
      const admin = await signedIn(server, { role: 'admin' });
      await buildUser(db(), { disabled: 1 });
      const topic = await buildTopic(server, admin);
      const post = await buildPost(server, admin, topic.id, 'Everyone: read this');
      const marked = dataOf<Post>(await mark(admin, post.id));
      const enabled = await db()
        .selectFrom('users')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('disabled', '=', 0)
        .executeTakeFirstOrThrow();
      expect(marked.announcement?.totals.audience).toBe(Number(enabled.n) - 1);
    });

    it('shows who may announce in the topic’s abilities', async () => {
      const { owner, member, topic } = await setup();
      const forOwner = dataOf<Topic>(await as(server, owner).get(`/api/topics/${topic.id}`));
      const forMember = dataOf<Topic>(await as(server, member).get(`/api/topics/${topic.id}`));
      expect(forOwner.abilities).toMatchObject({ announce: true, announcementReports: true });
      expect(forMember.abilities).toMatchObject({ announce: false, announcementReports: false });
    });

    it('changes the request without telling anyone again', async () => {
      const { owner, post } = await setup();
      dataOf(await mark(owner, post.id));
      const changed = dataOf<Post>(await mark(owner, post.id, { urgent: true, remindAfterMinutes: 10 }));
      expect(changed.announcement).toMatchObject({ urgent: true, remindAfterMinutes: 10, dueAt: null });
      const notices = await db()
        .selectFrom('notifications')
        .select(['kind', 'urgent'])
        .where('post_id', '=', post.id)
        .where('kind', 'in', ['post.announcement', 'announcement.reminder'])
        .execute();
      expect(notices).toEqual([
        { kind: 'post.announcement', urgent: 0 },
        { kind: 'post.announcement', urgent: 0 },
      ]);
    });

    it('writes one notice per person asked, urgent as the author chose', async () => {
      const { owner, member, other, post, topic } = await setup('Fire drill at **3 pm**');
      const due = inMinutes(90);
      dataOf(await mark(owner, post.id, { urgent: true, dueAt: due }));
      const notices = await db()
        .selectFrom('notifications')
        .selectAll()
        .where('post_id', '=', post.id)
        .where('kind', '=', 'post.announcement')
        .orderBy('user_id')
        .execute();
      expect(notices.map((n) => n.user_id).sort()).toEqual([member.user.id, other.user.id].sort());
      for (const n of notices) {
        expect(n).toMatchObject({
          kind: 'post.announcement',
          urgent: 1,
          topic_id: topic.id,
          body: 'Fire drill at 3 pm',
        });
        expect(n.title).toBe(`Important: ${topic.title}`);
        expect(JSON.parse(n.data)).toMatchObject({
          topicId: topic.id,
          postId: post.id,
          number: post.number,
          dueAt: new Date(due).toISOString(),
          urgent: true,
        });
      }
    });
  });

  describe('access', () => {
    it('asks for a session on every endpoint', async () => {
      const { owner, post } = await setup();
      dataOf(await mark(owner, post.id));
      const anonymous = as(server, null);
      for (const res of [
        await mark(null, post.id),
        await anonymous.delete(`/api/posts/${post.id}/announcement`),
        await ack(null, post.id),
        await anonymous.post('/api/announcements/seen', { postIds: [post.id] }),
        await anonymous.get('/api/announcements/pending'),
        await report(null, post.id),
        await anonymous.get(`/api/posts/${post.id}/announcement/people`),
        await anonymous.get(`/api/posts/${post.id}/announcement/export`),
        await anonymous.post(`/api/posts/${post.id}/announcement/reminders`),
      ]) {
        expect(res.statusCode).toBe(401);
      }
    });

    it('shows strangers nothing: 404 on every post endpoint, nothing pending, seen ignored', async () => {
      const { owner, stranger, post } = await setup();
      dataOf(await mark(owner, post.id));
      const them = as(server, stranger);
      for (const res of [
        await mark(stranger, post.id),
        await them.delete(`/api/posts/${post.id}/announcement`),
        await ack(stranger, post.id),
        await report(stranger, post.id),
        await them.get(`/api/posts/${post.id}/announcement/people`),
        await them.get(`/api/posts/${post.id}/announcement/export`),
        await them.post(`/api/posts/${post.id}/announcement/reminders`),
      ]) {
        expect(res.statusCode).toBe(404);
      }
      expect(dataOf(await them.post('/api/announcements/seen', { postIds: [post.id, 'nothing'] }))).toEqual(
        {},
      );
      expect(dataOf<PendingAnnouncementList>(await them.get('/api/announcements/pending')).total).toBe(0);
      const row = await db()
        .selectFrom('announcements')
        .select(['seen_count', 'audience'])
        .where('post_id', '=', post.id)
        .executeTakeFirstOrThrow();
      expect(Number(row.seen_count)).toBe(0);
    });

    it('gives readers the counts only: 403 on report, people, export, reminders and unmarking', async () => {
      const { owner, member, post } = await setup();
      dataOf(await mark(owner, post.id));
      const them = as(server, member);
      for (const res of [
        await report(member, post.id),
        await them.get(`/api/posts/${post.id}/announcement/people`),
        await them.get(`/api/posts/${post.id}/announcement/export`),
        await them.post(`/api/posts/${post.id}/announcement/reminders`),
        await them.delete(`/api/posts/${post.id}/announcement`),
      ]) {
        expect(res.statusCode).toBe(403);
        expect(res.json().message).toMatch(/author, the topic’s owners and admins/);
      }
      const view = dataOf<Post>(await them.get(`/api/posts/${post.id}`));
      expect(view.announcement?.totals).toEqual({ audience: 2, seen: 0, acknowledged: 0, notYet: 2 });
    });

    it('lets the author see the report of their post even when they are not an owner', async () => {
      const owner = await signedIn(server);
      const writer = await signedIn(server);
      const topic = await buildTopic(server, owner, { visibility: 'members', memberIds: [writer.user.id] });
      // Marked by an owner who made the writer an owner for it, then took it back: the author keeps the report.
      dataOf(
        await as(server, owner).patch(`/api/topics/${topic.id}/members/${writer.user.id}`, { role: 'owner' }),
      );
      const post = await buildPost(server, writer, topic.id, 'Mine to ask');
      dataOf(await mark(writer, post.id));
      dataOf(
        await as(server, owner).patch(`/api/topics/${topic.id}/members/${writer.user.id}`, {
          role: 'member',
        }),
      );
      expect(dataOf<AnnouncementReport>(await report(writer, post.id)).totals.audience).toBe(1);
    });

    it('names bad input', async () => {
      const { owner, post } = await setup();
      const past = await mark(owner, post.id, { dueAt: new Date(Date.now() - 60_000).toISOString() });
      expect(past.statusCode).toBe(400);
      expect(past.json().details[0]).toEqual({ field: 'body.dueAt', reason: 'must be in the future' });
      for (const [body, field] of [
        [{ remindAfterMinutes: 1 }, 'body.remindAfterMinutes'],
        [{ remindAfterMinutes: 7 * 24 * 60 + 1 }, 'body.remindAfterMinutes'],
        [{ remindAfterMinutes: 10.5 }, 'body.remindAfterMinutes'],
        [{ urgent: 'yes' }, 'body.urgent'],
        [{ dueAt: 'tomorrow' }, 'body.dueAt'],
      ] as const) {
        const res = await mark(owner, post.id, body);
        expect(res.statusCode).toBe(400);
        expect(res.json().details.map((d: { field: string }) => d.field)).toContain(field);
      }
      for (const postIds of [[], Array.from({ length: 51 }, (_, i) => `p${i}`)]) {
        const res = await as(server, owner).post('/api/announcements/seen', { postIds });
        expect(res.statusCode).toBe(400);
        expect(res.json().details[0].field).toBe('body.postIds');
      }
      dataOf(await mark(owner, post.id));
      const tz = await as(server, owner).get(`/api/posts/${post.id}/announcement/export?tz=Mars/Olympus`);
      expect(tz.statusCode).toBe(400);
      expect(tz.json().details[0].field).toBe('query.tz');
      const cursor = await as(server, owner).get(`/api/posts/${post.id}/announcement/people?cursor=nonsense`);
      expect(cursor.statusCode).toBe(400);
      expect(cursor.json().details[0].field).toBe('query.cursor');
      const status = await as(server, owner).get(`/api/posts/${post.id}/announcement/people?status=maybe`);
      expect(status.statusCode).toBe(400);
      expect(status.json().details[0].field).toBe('query.status');
    });
  });

  describe('acknowledging', () => {
    it('is idempotent: a second press answers the first time and counts once', async () => {
      const { owner, member, post } = await setup();
      dataOf(await mark(owner, post.id));
      const first = dataOf<AcknowledgementResult>(await ack(member, post.id));
      expect(first.totals).toEqual({ audience: 2, seen: 1, acknowledged: 1, notYet: 1 });
      const second = dataOf<AcknowledgementResult>(await ack(member, post.id));
      expect(second).toEqual(first);
      const view = dataOf<Post>(await as(server, member).get(`/api/posts/${post.id}`));
      expect(view.acknowledgedAt).toBe(first.acknowledgedAt);
      expect(view.announcement?.totals.acknowledged).toBe(1);
      const mine = await eventsSince(db(), [`user:${member.user.id}`], 0, 1000);
      const acknowledged = mine.filter((e) => e.type === 'me.acknowledged');
      expect(acknowledged.map((e) => e.payload)).toEqual([
        { topicId: post.topicId, postId: post.id, acknowledgedAt: first.acknowledgedAt },
      ]);
    });

    it('counts seen before the acknowledgement once, and an acknowledgement as seen', async () => {
      const { owner, member, other, post } = await setup();
      dataOf(await mark(owner, post.id));
      dataOf(await as(server, member).post('/api/announcements/seen', { postIds: [post.id] }));
      dataOf(await as(server, member).post('/api/announcements/seen', { postIds: [post.id] }));
      let view = dataOf<Post>(await as(server, owner).get(`/api/posts/${post.id}`));
      expect(view.announcement?.totals).toEqual({ audience: 2, seen: 1, acknowledged: 0, notYet: 2 });
      dataOf(await ack(member, post.id));
      dataOf(await ack(other, post.id));
      view = dataOf<Post>(await as(server, owner).get(`/api/posts/${post.id}`));
      expect(view.announcement?.totals).toEqual({ audience: 2, seen: 2, acknowledged: 2, notYet: 0 });
    });

    it('adds a reader who joined after the marking to the audience', async () => {
      const { owner, post, topic } = await setup();
      dataOf(await mark(owner, post.id));
      const late = await signedIn(server);
      dataOf(await as(server, owner).post(`/api/topics/${topic.id}/members`, { userIds: [late.user.id] }));
      const result = dataOf<AcknowledgementResult>(await ack(late, post.id));
      expect(result.totals).toEqual({ audience: 3, seen: 1, acknowledged: 1, notYet: 2 });
    });

    it('takes a reader who leaves a members-only topic out of its audience, but keeps an acknowledgement', async () => {
      const { owner, member, other, post, topic } = await setup();
      const third = await signedIn(server, { display_name: 'Tia Third' });
      dataOf(await as(server, owner).post(`/api/topics/${topic.id}/members`, { userIds: [third.user.id] }));
      dataOf(await mark(owner, post.id));
      dataOf(await as(server, member).post('/api/announcements/seen', { postIds: [post.id] }));
      dataOf(await ack(other, post.id));
      // Mia saw it and leaves; Otto acknowledged and is removed by the owner.
      dataOf(await as(server, member).delete(`/api/topics/${topic.id}/members/${member.user.id}`));
      dataOf(await as(server, owner).delete(`/api/topics/${topic.id}/members/${other.user.id}`));
      const totals = dataOf<AnnouncementReport>(await report(owner, post.id)).totals;
      expect(totals).toEqual({ audience: 2, seen: 1, acknowledged: 1, notYet: 1 });
      const people = dataOf<AnnouncementPeoplePage>(
        await as(server, owner).get(`/api/posts/${post.id}/announcement/people?status=all`),
      );
      expect(people.items.map((p) => p.displayName).sort()).toEqual(['Otto Other', 'Tia Third']);
    });

    it('takes a person who is disabled (left the organisation) out of every audience they had not acknowledged', async () => {
      const { owner, member, other, post } = await setup();
      const admin = await signedIn(server, { role: 'admin' });
      dataOf(await mark(owner, post.id));
      dataOf(await as(server, member).post('/api/announcements/seen', { postIds: [post.id] }));
      dataOf(await as(server, admin).patch(`/api/admin/people/${member.user.id}`, { disabled: true }));
      expect(dataOf<AnnouncementReport>(await report(owner, post.id)).totals).toEqual({
        audience: 1,
        seen: 0,
        acknowledged: 0,
        notYet: 1,
      });
      // Only those who had not acknowledged leave: Otto's acknowledgement stays when he is disabled too.
      dataOf(await ack(other, post.id));
      dataOf(await as(server, admin).patch(`/api/admin/people/${other.user.id}`, { disabled: true }));
      expect(dataOf<AnnouncementReport>(await report(owner, post.id)).totals.acknowledged).toBe(1);
    });

    it('takes readers who are not members out of the audience when an organisation-wide topic becomes members-only', async () => {
      const owner = await signedIn(server, { display_name: 'Olive Owner' });
      const member = await signedIn(server, { display_name: 'Mia Member' });
      const reader = await signedIn(server, { display_name: 'Rai Reader' });
      const acknowledger = await signedIn(server, { display_name: 'Ake Acknowledger' });
      const topic = await buildTopic(server, owner, {
        visibility: 'organisation',
        memberIds: [member.user.id],
      });
      const post = await buildPost(server, owner, topic.id, 'Everyone, please read');
      const marked = dataOf<Post>(await mark(owner, post.id));
      const everyone = marked.announcement!.totals.audience;
      dataOf(await ack(acknowledger, post.id));
      dataOf(await as(server, owner).patch(`/api/topics/${topic.id}`, { visibility: 'members' }));
      const after = dataOf<AnnouncementReport>(await report(owner, post.id));
      // Mia (a member) stays asked, Ake's acknowledgement stays, Rai and every other non-member left.
      expect(after.totals).toEqual({ audience: 2, seen: 1, acknowledged: 1, notYet: 1 });
      expect(everyone).toBeGreaterThan(2);
      expect((await ack(reader, post.id)).statusCode).toBe(404);
    });

    it('refuses the author (403) and posts that do not ask (409)', async () => {
      const { owner, member, post, topic } = await setup();
      const plain = await buildPost(server, owner, topic.id, 'Nothing to acknowledge');
      const notAsked = await ack(member, plain.id);
      expect(notAsked.statusCode).toBe(409);
      dataOf(await mark(owner, post.id));
      expect((await ack(owner, post.id)).statusCode).toBe(403);
    });

    it('lists what I have not acknowledged, urgent first then newest, until I do', async () => {
      const { owner, member, topic } = await setup();
      const older = await buildPost(server, owner, topic.id, 'Older');
      const newer = await buildPost(server, owner, topic.id, 'Newer');
      const urgent = await buildPost(server, owner, topic.id, 'Urgent **one**');
      dataOf(await mark(owner, urgent.id, { urgent: true }));
      dataOf(await mark(owner, older.id));
      await settle(5);
      dataOf(await mark(owner, newer.id));
      const list = dataOf<PendingAnnouncementList>(
        await as(server, member).get('/api/announcements/pending'),
      );
      expect(list.items.map((i) => i.postId)).toEqual([urgent.id, newer.id, older.id]);
      expect(list.total).toBe(3);
      expect(list.items[0]).toMatchObject({
        topicId: topic.id,
        topicTitle: topic.title,
        number: urgent.number,
        authorName: 'Olive Owner',
        excerpt: 'Urgent one',
        urgent: true,
        dueAt: null,
      });
      dataOf(await ack(member, urgent.id));
      const after = dataOf<PendingAnnouncementList>(
        await as(server, member).get('/api/announcements/pending'),
      );
      expect(after.items.map((i) => i.postId)).toEqual([newer.id, older.id]);
      expect(
        dataOf<PendingAnnouncementList>(await as(server, owner).get('/api/announcements/pending')).total,
      ).toBe(0);
    });

    it('shows the important post pinned on the topic page until it is acknowledged', async () => {
      const { owner, member, topic, post } = await setup();
      const pinned = await buildPost(server, owner, topic.id, 'Pinned');
      dataOf(await as(server, owner).put(`/api/posts/${pinned.id}/pin`, { pinned: true }));
      dataOf(await mark(owner, post.id));
      const page = dataOf<PostPage>(await as(server, member).get(`/api/topics/${topic.id}/posts`));
      expect(page.pinned.map((p) => p.id)).toEqual([post.id, pinned.id]);
      expect(page.items.find((p) => p.id === post.id)?.announcement?.totals.audience).toBe(2);
      // The author is not asked: only the pinned post.
      const authors = dataOf<PostPage>(await as(server, owner).get(`/api/topics/${topic.id}/posts`));
      expect(authors.pinned.map((p) => p.id)).toEqual([pinned.id]);
      const { acknowledgedAt } = dataOf<AcknowledgementResult>(await ack(member, post.id));
      const after = dataOf<PostPage>(await as(server, member).get(`/api/topics/${topic.id}/posts`));
      expect(after.pinned.map((p) => p.id)).toEqual([pinned.id]);
      expect(after.items.find((p) => p.id === post.id)?.acknowledgedAt).toBe(acknowledgedAt);
    });

    it('hides a deleted post’s request: nothing pending, acknowledging is a 409', async () => {
      const { owner, member, post } = await setup();
      dataOf(await mark(owner, post.id));
      dataOf(await as(server, owner).delete(`/api/posts/${post.id}`));
      expect(
        dataOf<PendingAnnouncementList>(await as(server, member).get('/api/announcements/pending')).total,
      ).toBe(0);
      expect((await ack(member, post.id)).statusCode).toBe(409);
      expect(dataOf<Post>(await as(server, member).get(`/api/posts/${post.id}`)).announcement).toBeNull();
    });
  });

  describe('unmarking', () => {
    it('takes the request and its rows away, tells the topic and audits', async () => {
      const { owner, member, post } = await setup();
      dataOf(await mark(owner, post.id));
      dataOf(await ack(member, post.id));
      const view = dataOf<Post>(await as(server, owner).delete(`/api/posts/${post.id}/announcement`));
      expect(view.announcement).toBeNull();
      expect((await ack(member, post.id)).statusCode).toBe(409);
      expect((await report(owner, post.id)).statusCode).toBe(409);
      const rows = await db()
        .selectFrom('announcement_recipients')
        .select('user_id')
        .where('post_id', '=', post.id)
        .execute();
      expect(rows).toEqual([]);
      const events = await eventsSince(db(), [`topic:${post.topicId}`], 0, 1000);
      const marked = events.filter((e) => e.type === 'announcement.marked').map((e) => e.payload);
      expect(marked.at(-1)).toEqual({ topicId: post.topicId, postId: post.id, announcement: null });
      const audit = await db()
        .selectFrom('audit_log')
        .select('action')
        .where('target', '=', `post:${post.id}`)
        .orderBy('created_at')
        .execute();
      expect(audit.map((a) => a.action)).toEqual(['announcement.marked', 'announcement.unmarked']);
      expect((await as(server, owner).delete(`/api/posts/${post.id}/announcement`)).statusCode).toBe(409);
    });
  });

  describe('report, people and export', () => {
    /** The organisation as members of a topic of an outside author; the post marked. */
    async function orgSetup(pick: (keyof Org)[] | null = null) {
      const org = await buildOrg(server);
      const author = await signedIn(server, { display_name: 'Author' });
      const people = (pick ?? (Object.keys(org) as (keyof Org)[])).map((k) => org[k]);
      const topic = await buildTopic(server, author, {
        visibility: 'members',
        memberIds: people.map((p) => p.id),
      });
      const post = await buildPost(server, author, topic.id, 'Everyone please read');
      dataOf(await mark(author, post.id));
      return { org, author, topic, post, as: (k: keyof Org) => signedInAs(server, org[k]) };
    }

    it('rolls the audience up by department and by manager branch', async () => {
      const { org, author, post, as: person } = await orgSetup();
      dataOf(await ack(await person('c1'), post.id));
      dataOf(await ack(await person('b3'), post.id));
      dataOf(await as(server, await person('c2')).post('/api/announcements/seen', { postIds: [post.id] }));
      const r = dataOf<AnnouncementReport>(await report(author, post.id));
      expect(r.totals).toEqual({ audience: 9, seen: 3, acknowledged: 2, notYet: 7 });
      expect(r.departments).toEqual([
        { name: 'Operations', audience: 5, seen: 2, acknowledged: 1, notYet: 4 },
        { name: 'Finance', audience: 3, seen: 1, acknowledged: 1, notYet: 2 },
        { name: 'Executive', audience: 1, seen: 0, acknowledged: 0, notYet: 1 },
      ]);
      expect(r.branches.map((b) => [b.id, b.depth, b.managerId, b.audience, b.seen, b.acknowledged])).toEqual(
        [
          [org.ceo.id, 0, null, 9, 3, 2],
          [org.a1.id, 1, org.ceo.id, 5, 2, 1],
          [org.b1.id, 2, org.a1.id, 3, 2, 1],
          [org.a2.id, 1, org.ceo.id, 3, 1, 1],
          [org.b3.id, 2, org.a2.id, 2, 1, 1],
        ],
      );
      expect(r.remindedAt).toBeNull();
      expect(r.canRemind).toBe(true);

      const finance = dataOf<AnnouncementReport>(await report(author, post.id, '?department=Finance'));
      expect(finance.totals).toEqual({ audience: 3, seen: 1, acknowledged: 1, notYet: 2 });
      expect(finance.departments).toHaveLength(3);
      expect(finance.branches.map((b) => [b.id, b.depth, b.audience])).toEqual([
        [org.ceo.id, 0, 3],
        [org.a2.id, 1, 3],
        [org.b3.id, 2, 2],
      ]);
    });

    it('keeps managers outside the audience as the tops of their branches', async () => {
      const { org, author, post } = await orgSetup(['b1', 'c1', 'c2']);
      const r = dataOf<AnnouncementReport>(await report(author, post.id));
      expect(r.branches.map((b) => [b.displayName, b.depth, b.audience])).toEqual([
        [org.ceo.display_name, 0, 3],
        [org.a1.display_name, 1, 3],
        [org.b1.display_name, 2, 3],
      ]);
    });

    it('pages the people, not acknowledged first then by name, with their managers; audited', async () => {
      const { org, author, post, as: person } = await orgSetup();
      dataOf(await ack(await person('a1'), post.id));
      const url = `/api/posts/${post.id}/announcement/people`;
      const seen: string[] = [];
      let cursor: string | null = null;
      do {
        const page: AnnouncementPeoplePage = dataOf<AnnouncementPeoplePage>(
          await as(server, author).get(`${url}?status=all&limit=4${cursor ? `&cursor=${cursor}` : ''}`),
        );
        expect(page.items.length).toBeLessThanOrEqual(4);
        seen.push(...page.items.map((p) => p.id));
        cursor = page.nextCursor;
      } while (cursor);
      const pendingNames = (Object.keys(org) as (keyof Org)[])
        .filter((k) => k !== 'a1')
        .map((k) => org[k])
        .sort((a, b) => (a.display_name < b.display_name ? -1 : 1))
        .map((u) => u.id);
      expect(seen).toEqual([...pendingNames, org.a1.id]);

      const pending = dataOf<AnnouncementPeoplePage>(await as(server, author).get(url));
      expect(pending.items).toHaveLength(8);
      const c3 = pending.items.find((p) => p.id === org.c3.id);
      expect(c3).toMatchObject({
        displayName: org.c3.display_name,
        email: org.c3.email,
        department: 'Finance',
        managerId: org.b3.id,
        managerName: org.b3.display_name,
        seenAt: null,
        acknowledgedAt: null,
      });
      const done = dataOf<AnnouncementPeoplePage>(await as(server, author).get(`${url}?status=acknowledged`));
      expect(done.items.map((p) => p.id)).toEqual([org.a1.id]);
      const branch = dataOf<AnnouncementPeoplePage>(
        await as(server, author).get(`${url}?status=all&branch=${org.b1.id}`),
      );
      expect(branch.items.map((p) => p.id).sort()).toEqual([org.b1.id, org.c1.id, org.c2.id].sort());
      const audit = await db()
        .selectFrom('audit_log')
        .select('action')
        .where('target', '=', `post:${post.id}`)
        .where('action', '=', 'announcement.people_viewed')
        .execute();
      expect(audit.length).toBeGreaterThanOrEqual(5);
    });

    it('exports the people list as CSV with a byte-order mark and local times', async () => {
      const { org, author, topic, post, as: person } = await orgSetup();
      const { acknowledgedAt } = dataOf<AcknowledgementResult>(await ack(await person('b2'), post.id));
      const res = await as(server, author).get(`/api/posts/${post.id}/announcement/export?tz=Asia/Bangkok`);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
      expect(res.headers['content-disposition']).toContain(
        `attachment; filename="acknowledgements-${topic.title}-${post.number}.csv"`,
      );
      const text = res.rawPayload.toString('utf8');
      expect(text.startsWith('\uFEFF')).toBe(true);
      const lines = text.slice(1).trimEnd().split('\r\n');
      expect(lines[0]).toBe('Name,Email,Department,Manager,Seen,Acknowledged');
      const local = new Date(Date.parse(acknowledgedAt) + 7 * 3600_000)
        .toISOString()
        .slice(0, 19)
        .replace('T', ' ');
      expect(lines.at(-1)).toBe(
        `${org.b2.display_name},${org.b2.email},Operations,${org.a1.display_name},${local},${local}`,
      );
      const list = dataOf<AnnouncementPeoplePage>(
        await as(server, author).get(`/api/posts/${post.id}/announcement/people?status=all&limit=500`),
      );
      expect(lines.slice(1).map((l) => l.split(',')[1])).toEqual(list.items.map((p) => p.email));
      const audit = await db()
        .selectFrom('audit_log')
        .select('action')
        .where('target', '=', `post:${post.id}`)
        .where('action', '=', 'announcement.exported')
        .execute();
      expect(audit).toHaveLength(1);
    });

    it('lets a topic owner and an admin see the report of another author’s post', async () => {
      const owner = await signedIn(server);
      const admin = await signedIn(server, { role: 'admin' });
      const topic = await buildTopic(server, owner);
      const post = await buildPost(server, admin, topic.id, 'From the admin');
      dataOf(await mark(admin, post.id));
      expect(dataOf<AnnouncementReport>(await report(owner, post.id)).postId).toBe(post.id);
      expect(dataOf<AnnouncementReport>(await report(admin, post.id)).postId).toBe(post.id);
    });
  });

  describe('reminders', () => {
    it('reminds the people who have not acknowledged, at most once per 15 minutes', async () => {
      const { owner, member, other, post } = await setup();
      dataOf(await mark(owner, post.id, { urgent: true }));
      dataOf(await ack(member, post.id));
      const url = `/api/posts/${post.id}/announcement/reminders`;
      const sent = dataOf<{ reminded: number; remindedAt: string }>(await as(server, owner).post(url));
      expect(sent.reminded).toBe(1);
      const notices = await db()
        .selectFrom('notifications')
        .select(['user_id', 'urgent'])
        .where('post_id', '=', post.id)
        .where('kind', '=', 'announcement.reminder')
        .execute();
      expect(notices).toEqual([{ user_id: other.user.id, urgent: 1 }]);
      const again = await as(server, owner).post(url);
      expect(again.statusCode).toBe(409);
      expect(again.json().message).toMatch(/15 minutes/);
      const r = dataOf<AnnouncementReport>(await report(owner, post.id));
      expect(r).toMatchObject({ remindedAt: sent.remindedAt, canRemind: false });
      // Sixteen minutes later it may be used again; once everyone acknowledged, nobody is left to remind.
      await db()
        .updateTable('announcements')
        .set({ reminded_at: new Date(Date.now() - 16 * 60_000).toISOString() })
        .where('post_id', '=', post.id)
        .execute();
      dataOf(await ack(other, post.id));
      const nobody = await as(server, owner).post(url);
      expect(nobody.statusCode).toBe(409);
      expect(nobody.json().message).toMatch(/Everyone/);
      const audit = await db()
        .selectFrom('audit_log')
        .select('action')
        .where('target', '=', `post:${post.id}`)
        .where('action', '=', 'announcement.reminded')
        .execute();
      expect(audit).toHaveLength(1);
    });

    it('sends the automatic reminder once, after the delay, to those who have not acknowledged', async () => {
      const { owner, member, other, post } = await setup();
      const marked = dataOf<Post>(await mark(owner, post.id, { remindAfterMinutes: 30 }));
      dataOf(await ack(member, post.id));
      let clock = new Date(Date.parse(marked.announcement!.markedAt) + 29 * 60_000);
      const job = new AnnouncementReminderJob({ db: db(), bus: server.ctx.bus, now: () => clock });
      const other_ = new AnnouncementReminderJob({ db: db(), bus: server.ctx.bus, now: () => clock });
      try {
        const reminders = () =>
          db()
            .selectFrom('notifications')
            .select('user_id')
            .where('post_id', '=', post.id)
            .where('kind', '=', 'announcement.reminder')
            .execute();
        await job.tick();
        expect(await reminders()).toEqual([]);
        clock = new Date(clock.getTime() + 2 * 60_000);
        expect(await job.tick()).toBeGreaterThanOrEqual(1);
        expect(await reminders()).toEqual([{ user_id: other.user.id }]);
        // Again, and from a second instance once the lease has run out: nothing more.
        await job.tick();
        clock = new Date(clock.getTime() + 10 * 60_000);
        await other_.tick();
        expect(
          await db()
            .transaction()
            .execute((trx) => sendAutomaticReminder(trx, post.id, clock)),
        ).toBeNull();
        expect(await reminders()).toEqual([{ user_id: other.user.id }]);
      } finally {
        await job.stop();
        await other_.stop();
      }
    });
  });
});

describeEachDatabase('announcements when everyone may announce', (kind) => {
  const server = useTestServer(kind, { ANNOUNCEMENT_AUTHORS: 'everyone' });

  it('lets a plain member mark their own post, and still not see others’ reports', async () => {
    const owner = await signedIn(server);
    const member = await signedIn(server);
    const topic = await buildTopic(server, owner, { visibility: 'members', memberIds: [member.user.id] });
    const abilities = dataOf<Topic>(await as(server, member).get(`/api/topics/${topic.id}`)).abilities;
    expect(abilities).toMatchObject({ announce: true, announcementReports: false });
    const post = await buildPost(server, member, topic.id, 'From a member');
    const marked = dataOf<Post>(await as(server, member).put(`/api/posts/${post.id}/announcement`, {}));
    expect(marked.announcement?.totals.audience).toBe(1);
    // The author sees their own post's report.
    expect((await as(server, member).get(`/api/posts/${post.id}/announcement/report`)).statusCode).toBe(200);
    const ownersPost = await buildPost(server, owner, topic.id, 'From the owner');
    dataOf(await as(server, owner).put(`/api/posts/${ownersPost.id}/announcement`, {}));
    expect((await as(server, member).get(`/api/posts/${ownersPost.id}/announcement/report`)).statusCode).toBe(
      403,
    );
  });
});

describeEachDatabase('announcements over realtime', (kind) => {
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
    await c.hello(who.token, server.ctx.config.apiKey);
    return c;
  };

  it('tells the topic of the marking and the progress, coalesced, with the last counts', async () => {
    const owner = await signedIn(server);
    const readers = await Promise.all(Array.from({ length: 8 }, () => signedIn(server)));
    const stranger = await signedIn(server);
    const topic = await buildTopic(server, owner, {
      visibility: 'members',
      memberIds: readers.map((r) => r.user.id),
    });
    const post = await buildPost(server, owner, topic.id, 'Live counts');
    const ownerSocket = await connect(owner);
    const strangerSocket = await connect(stranger);
    const firstReaderSocket = await connect(readers[0]!);
    dataOf(await as(server, owner).put(`/api/posts/${post.id}/announcement`, { urgent: true }));
    const marked = await ownerSocket.waitFor<EventMessage>(
      (m) => m.type === 'event' && m.name === 'announcement.marked',
    );
    expect(marked.payload).toMatchObject({
      topicId: topic.id,
      postId: post.id,
      announcement: { urgent: true, totals: { audience: 8, acknowledged: 0 } },
    });
    await Promise.all(readers.map((r) => as(server, r).post(`/api/posts/${post.id}/acknowledgement`)));
    const last = await ownerSocket.waitFor<EventMessage>(
      (m) =>
        m.type === 'event' &&
        m.name === 'announcement.progress' &&
        (m.payload as { totals: { acknowledged: number } }).totals.acknowledged === 8,
    );
    expect(last.payload).toEqual({
      postId: post.id,
      topicId: topic.id,
      totals: { audience: 8, seen: 8, acknowledged: 8, notYet: 0 },
    });
    await firstReaderSocket.waitFor((m) => m.type === 'event' && m.name === 'me.acknowledged');
    await settle(700);
    const progress = ownerSocket.events().filter((e) => e.name === 'announcement.progress');
    // Eight acknowledgements within a moment: far fewer events (at most two a second, one trailing).
    expect(progress.length).toBeLessThan(8);
    expect(JSON.stringify(strangerSocket.events())).not.toContain(post.id);
  });
});
