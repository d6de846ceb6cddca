import { ErrorCode } from '@btalk/contracts';
import { expect, it } from 'vitest';
import { eventsSince } from '../../events/eventLog.ts';
import { describeEachDatabase } from '../../test/db.ts';
import { useTestServer } from '../../test/server.ts';
import { signedIn } from '../../test/session.ts';
import { as, buildTopic, dataOf } from '../../test/topics.ts';

describeEachDatabase('topic members API', (kind) => {
  const server = useTestServer(kind);

  it('requires authentication', async () => {
    const alice = await signedIn(server);
    const t = await buildTopic(server, alice);
    expect((await as(server, null).get(`/api/topics/${t.id}/members`)).statusCode).toBe(401);
    expect((await as(server, null).post(`/api/topics/${t.id}/members`, { userIds: ['x'] })).statusCode).toBe(
      401,
    );
  });

  it('lets owners add people, who then see the members-only topic', async () => {
    const alice = await signedIn(server, { display_name: 'Alice' });
    const bob = await signedIn(server, { display_name: 'Bob' });
    const t = await buildTopic(server, alice, { visibility: 'members' });
    expect((await as(server, bob).get(`/api/topics/${t.id}`)).statusCode).toBe(404);
    const added = dataOf<{ added: { person: { id: string }; role: string }[] }>(
      await as(server, alice).post(`/api/topics/${t.id}/members`, { userIds: [bob.user.id, bob.user.id] }),
    );
    expect(added.added).toEqual([
      expect.objectContaining({ person: expect.objectContaining({ id: bob.user.id }), role: 'member' }),
    ]);
    const again = dataOf<{ added: unknown[] }>(
      await as(server, alice).post(`/api/topics/${t.id}/members`, { userIds: [bob.user.id] }),
    );
    expect(again.added).toEqual([]);
    const topic = dataOf<{ memberCount: number; myRole: string }>(
      await as(server, bob).get(`/api/topics/${t.id}`),
    );
    expect(topic).toMatchObject({ memberCount: 2, myRole: 'member' });
    const members = dataOf<{ items: { person: { displayName: string }; role: string }[] }>(
      await as(server, bob).get(`/api/topics/${t.id}/members`),
    );
    expect(members.items.map((m) => [m.person.displayName, m.role])).toEqual([
      ['Alice', 'owner'],
      ['Bob', 'member'],
    ]);
    const events = await eventsSince(server.ctx.db.kysely, [`user:${bob.user.id}`], 0, 10);
    expect(events.map((e) => e.type)).toEqual(['me.membership_added', 'notification.created']);
  });

  it('refuses members who manage members (403) and bad input (400)', async () => {
    const alice = await signedIn(server);
    const bob = await signedIn(server);
    const carol = await signedIn(server);
    const t = await buildTopic(server, alice, { visibility: 'members', memberIds: [bob.user.id] });
    const refused = await as(server, bob).post(`/api/topics/${t.id}/members`, { userIds: [carol.user.id] });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().code).toBe(ErrorCode.forbidden);
    expect((await as(server, bob).delete(`/api/topics/${t.id}/members/${alice.user.id}`)).statusCode).toBe(
      403,
    );
    expect(
      (await as(server, bob).patch(`/api/topics/${t.id}/members/${bob.user.id}`, { role: 'owner' }))
        .statusCode,
    ).toBe(403);
    const empty = await as(server, alice).post(`/api/topics/${t.id}/members`, { userIds: [] });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().details[0].field).toBe('body.userIds');
    const role = await as(server, alice).patch(`/api/topics/${t.id}/members/${bob.user.id}`, {
      role: 'king',
    });
    expect(role.statusCode).toBe(400);
    expect(role.json().details[0].field).toBe('body.role');
  });

  it('pages members with a cursor, owners first', async () => {
    const alice = await signedIn(server, { display_name: 'Zed Owner' });
    const people = await Promise.all(
      ['Anan', 'Bee', 'Chai'].map((n) => signedIn(server, { display_name: n })),
    );
    const t = await buildTopic(server, alice, { memberIds: people.map((p) => p.user.id) });
    const first = dataOf<{ items: { person: { displayName: string } }[]; nextCursor: string }>(
      await as(server, alice).get(`/api/topics/${t.id}/members?limit=2`),
    );
    expect(first.items.map((m) => m.person.displayName)).toEqual(['Zed Owner', 'Anan']);
    const second = dataOf<{ items: { person: { displayName: string } }[]; nextCursor: string | null }>(
      await as(server, alice).get(`/api/topics/${t.id}/members?limit=2&cursor=${first.nextCursor}`),
    );
    expect(second.items.map((m) => m.person.displayName)).toEqual(['Bee', 'Chai']);
    expect(second.nextCursor).toBeNull();
  });

  it('changes roles, removes members, lets members leave, and keeps the last owner', async () => {
    const alice = await signedIn(server);
    const bob = await signedIn(server);
    const carol = await signedIn(server);
    const t = await buildTopic(server, alice, {
      visibility: 'members',
      memberIds: [bob.user.id, carol.user.id],
    });
    const lastOwner = await as(server, alice).delete(`/api/topics/${t.id}/members/${alice.user.id}`);
    expect(lastOwner.statusCode).toBe(409);
    expect(
      (await as(server, alice).patch(`/api/topics/${t.id}/members/${alice.user.id}`, { role: 'member' }))
        .statusCode,
    ).toBe(409);
    dataOf(await as(server, alice).patch(`/api/topics/${t.id}/members/${bob.user.id}`, { role: 'owner' }));
    dataOf(await as(server, alice).delete(`/api/topics/${t.id}/members/${alice.user.id}`));
    expect((await as(server, alice).get(`/api/topics/${t.id}`)).statusCode).toBe(404);
    dataOf(await as(server, bob).delete(`/api/topics/${t.id}/members/${carol.user.id}`));
    expect((await as(server, carol).get(`/api/topics/${t.id}`)).statusCode).toBe(404);
    const topic = dataOf<{ memberCount: number }>(await as(server, bob).get(`/api/topics/${t.id}`));
    expect(topic.memberCount).toBe(1);
    const events = await eventsSince(server.ctx.db.kysely, [`user:${carol.user.id}`], 0, 10);
    expect(events.map((e) => e.type)).toEqual([
      'me.membership_added',
      'notification.created',
      'me.membership_removed',
    ]);
  });
});
