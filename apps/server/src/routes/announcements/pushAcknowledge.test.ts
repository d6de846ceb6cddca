import { ErrorCode } from '@btalk/contracts';
import { beforeAll, expect, it } from 'vitest';
import { newId } from '../../ids.ts';
import { acknowledgeToken } from '../../notifications/acknowledgeLinks.ts';
import { describeEachDatabase } from '../../test/db.ts';
import { useTestServer } from '../../test/server.ts';
import { type SignedIn, signedIn } from '../../test/session.ts';
import { as, buildPost, buildTopic, dataOf } from '../../test/topics.ts';

const PATH = '/api/announcements/acknowledge';
const DAY = 24 * 60 * 60 * 1000;

describeEachDatabase('POST /api/announcements/acknowledge/:token (the push notification action)', (kind) => {
  const server = useTestServer(kind);
  const db = () => server.ctx.db.kysely;
  let author: SignedIn;
  let member: SignedIn;
  let topicId: string;

  const tokenOf = (userId: string, postId: string, at = new Date()) =>
    acknowledgeToken(server.ctx.secret, userId, postId, at)!;
  /** What a service worker sends: a POST without body, session or client key. */
  const press = (token: string) => server.app.inject({ method: 'POST', url: `${PATH}/${token}` });
  const recipientOf = (postId: string, userId: string) =>
    db()
      .selectFrom('announcement_recipients')
      .selectAll()
      .where('post_id', '=', postId)
      .where('user_id', '=', userId)
      .executeTakeFirst();
  /** A post of the author in the members' topic, marked important. */
  async function importantPost(): Promise<string> {
    const post = await buildPost(server, author, topicId, 'Fire drill on Friday at 10:00.');
    const marked = await as(server, author).put(`/api/posts/${post.id}/announcement`, { urgent: false });
    expect(marked.statusCode).toBe(200);
    return post.id;
  }

  beforeAll(async () => {
    author = await signedIn(server);
    member = await signedIn(server);
    topicId = (
      await buildTopic(server, author, {
        title: 'Safety',
        visibility: 'members',
        memberIds: [member.user.id],
      })
    ).id;
  });

  it('acknowledges for the person of the token with no session nor x-api-key; a second press answers the same time', async () => {
    const postId = await importantPost();
    const token = tokenOf(member.user.id, postId);
    const first = await press(token);
    expect(first.statusCode).toBe(200);
    const { acknowledgedAt } = first.json().data as { acknowledgedAt: string };
    expect(first.json()).toEqual({ code: 0, data: { acknowledgedAt } });
    expect(Number.isNaN(Date.parse(acknowledgedAt))).toBe(false);
    const row = await recipientOf(postId, member.user.id);
    expect(row?.acknowledged_at).toBeTruthy();
    expect(new Date(row!.acknowledged_at!).toISOString()).toBe(new Date(acknowledgedAt).toISOString());

    const again = await press(token);
    expect(again.statusCode).toBe(200);
    expect(again.json().data).toEqual({ acknowledgedAt });
    // The post as the person sees it says so.
    const post = dataOf<{ acknowledgedAt: string | null }>(
      await as(server, member).get(`/api/posts/${postId}`),
    );
    expect(post.acknowledgedAt).toBe(acknowledgedAt);
  });

  it('refuses a token that is not this server’s, garbled or expired: 400 naming the token, nothing written', async () => {
    const postId = await importantPost();
    const good = tokenOf(member.user.id, postId);
    const [claims, mac] = good.split('.') as [string, string];
    for (const token of [
      `${claims}.${'A'.repeat(43)}`,
      `${claims.slice(0, -1)}${claims.endsWith('A') ? 'B' : 'A'}.${mac}`,
      acknowledgeToken(new Uint8Array(32).fill(9), member.user.id, postId)!,
      'not-a-token',
      `${good}x`,
    ]) {
      const answer = await press(token);
      expect(answer.statusCode).toBe(400);
      expect(answer.json()).toMatchObject({
        code: ErrorCode.validation,
        details: [{ field: 'token', reason: expect.stringContaining('not an acknowledge link') }],
      });
    }
    const expired = await press(tokenOf(member.user.id, postId, new Date(Date.now() - 15 * DAY)));
    expect(expired.statusCode).toBe(400);
    expect(expired.json().details).toEqual([{ field: 'token', reason: expect.stringContaining('expired') }]);
    // Too long for a token at all: no route takes it (and then the client key is asked for).
    const long = await press('x'.repeat(300));
    expect(long.statusCode).toBe(401);
    expect(long.json().code).toBe(ErrorCode.badApiKey);
    expect((await recipientOf(postId, member.user.id))?.acknowledged_at ?? null).toBeNull();
  });

  it("acknowledges only for the token's person: a stranger's token on a members' post is a 404, a nobody's a 400", async () => {
    const postId = await importantPost();
    const stranger = await signedIn(server);
    const answer = await press(tokenOf(stranger.user.id, postId));
    expect(answer.statusCode).toBe(404);
    expect(answer.json().code).toBe(ErrorCode.notFound);
    expect(await recipientOf(postId, stranger.user.id)).toBeUndefined();
    expect((await recipientOf(postId, member.user.id))?.acknowledged_at ?? null).toBeNull();

    const nobody = await press(tokenOf(newId(), postId));
    expect(nobody.statusCode).toBe(400);
    expect(nobody.json().details).toEqual([
      { field: 'token', reason: expect.stringContaining('no BTalk account') },
    ]);
  });

  it('a post that does not ask is a 409; a disabled person is a 403', async () => {
    const plain = await buildPost(server, author, topicId, 'Just news.');
    const notMarked = await press(tokenOf(member.user.id, plain.id));
    expect(notMarked.statusCode).toBe(409);
    expect(notMarked.json().code).toBe(ErrorCode.conflict);

    const postId = await importantPost();
    const leaving = await signedIn(server);
    await as(server, author).post(`/api/topics/${topicId}/members`, { userIds: [leaving.user.id] });
    await db().updateTable('users').set({ disabled: 1 }).where('id', '=', leaving.user.id).execute();
    const disabled = await press(tokenOf(leaving.user.id, postId));
    expect(disabled.statusCode).toBe(403);
    expect(disabled.json()).toMatchObject({
      code: ErrorCode.forbidden,
      message: expect.stringContaining('disabled'),
    });
    // The author is not asked: the command refuses them too.
    expect((await press(tokenOf(author.user.id, postId))).statusCode).toBe(403);
  });

  it('does nothing on GET (link scanners open links), and exempts only this route from x-api-key', async () => {
    const postId = await importantPost();
    const token = tokenOf(member.user.id, postId);
    const get = await server.app.inject({ method: 'GET', url: `${PATH}/${token}` });
    expect(get.statusCode).not.toBe(200);
    expect(get.json().code).not.toBe(ErrorCode.ok);
    expect((await recipientOf(postId, member.user.id))?.acknowledged_at ?? null).toBeNull();
    for (const url of [PATH, `${PATH}/${token}/x`, `/api/posts/${postId}/acknowledgement`]) {
      const other = await server.app.inject({ method: 'POST', url, payload: {} });
      expect(other.json().code).toBe(ErrorCode.badApiKey);
    }
  });
});
