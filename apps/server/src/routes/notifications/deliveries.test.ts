import { ErrorCode, type NotificationDelivery, type NotificationDeliveryList } from '@btalk/contracts';
import { beforeAll, expect, it } from 'vitest';
import type { DeliveryRow } from '../../db/schema.ts';
import { newId } from '../../ids.ts';
import { describeEachDatabase } from '../../test/db.ts';
import { useTestServer } from '../../test/server.ts';
import { type SignedIn, signedIn } from '../../test/session.ts';
import { as, dataOf } from '../../test/topics.ts';

const URL = '/api/admin/notification-deliveries';

describeEachDatabase('GET /api/admin/notification-deliveries and POST .../:id/retry', (kind) => {
  const server = useTestServer(kind);
  const db = () => server.ctx.db.kysely;
  let admin: SignedIn;
  let member: SignedIn;

  beforeAll(async () => {
    admin = await signedIn(server, { role: 'admin' });
    member = await signedIn(server, { display_name: 'Mali Member' });
  });

  /** Writes a notification for `who` and one delivery of it, as the delivery worker leaves them. */
  const delivery = async (
    who: SignedIn,
    status: DeliveryRow['status'],
    minute: number,
    extra: Partial<DeliveryRow> = {},
  ): Promise<string> => {
    const at = new Date(Date.UTC(2026, 0, 1, 9, minute)).toISOString();
    const notificationId = newId();
    await db()
      .insertInto('notifications')
      .values({
        id: notificationId,
        user_id: who.user.id,
        kind: 'post.mention',
        title: `Mention ${minute}`,
        body: 'Somebody mentioned you',
        data: '{}',
        created_at: at,
        read_at: null,
      })
      .execute();
    const id = newId();
    await db()
      .insertInto('notification_deliveries')
      .values({
        id,
        notification_id: notificationId,
        user_id: who.user.id,
        channel: 'email',
        status,
        urgent: 0,
        attempts: status === 'dead' ? 8 : 0,
        next_attempt_at: at,
        locked_until: null,
        locked_by: null,
        last_error: status === 'dead' ? 'SMTP 550 mailbox unavailable' : null,
        sent_at: null,
        created_at: at,
        updated_at: at,
        ...extra,
      })
      .execute();
    return id;
  };
  const totals = async () => {
    const rows = await db().selectFrom('notification_deliveries').select('status').execute();
    return {
      pending: rows.filter((r) => r.status === 'pending').length,
      dead: rows.filter((r) => r.status === 'dead').length,
    };
  };
  const list = async (query = '') =>
    dataOf<NotificationDeliveryList>(await as(server, admin).get(`${URL}${query}`));

  it('require authentication', async () => {
    const id = await delivery(member, 'dead', 1);
    for (const res of [await as(server, null).get(URL), await as(server, null).post(`${URL}/${id}/retry`)]) {
      expect(res.statusCode).toBe(401);
      expect(res.json().code).toBe(ErrorCode.unauthenticated);
    }
  });

  it('are for administrators only', async () => {
    const id = await delivery(member, 'dead', 2);
    for (const res of [
      await as(server, member).get(URL),
      await as(server, member).post(`${URL}/${id}/retry`),
      // Unknown ids too: a non-administrator learns nothing about which exist.
      await as(server, member).post(`${URL}/no-such-delivery/retry`),
    ]) {
      expect(res.statusCode).toBe(403);
      expect(res.json().code).toBe(ErrorCode.forbidden);
    }
    const row = await db()
      .selectFrom('notification_deliveries')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
    expect(row?.status).toBe('dead');
  });

  it('lists dead letters newest change first, page by page, with the totals', async () => {
    const older = await delivery(member, 'dead', 10);
    const newer = await delivery(member, 'dead', 20);
    const newest = await delivery(admin, 'dead', 30);
    await delivery(member, 'pending', 40);
    await delivery(member, 'sent', 50);

    const first = await list('?limit=2');
    expect(first.items.map((d) => d.id)).toEqual([newest, newer]);
    expect(first.items[1]).toEqual({
      id: newer,
      channel: 'email',
      status: 'dead',
      attempts: 8,
      lastError: 'SMTP 550 mailbox unavailable',
      kind: 'post.mention',
      title: 'Mention 20',
      person: { id: member.user.id, displayName: 'Mali Member', email: member.user.email },
      createdAt: '2026-01-01T09:20:00.000Z',
      updatedAt: '2026-01-01T09:20:00.000Z',
    });
    expect({ pending: first.pending, dead: first.dead }).toEqual(await totals());
    const second = await list(`?limit=2&cursor=${first.nextCursor}`);
    expect(second.items[0]!.id).toBe(older);

    const all = await list('?limit=100');
    expect(all.items.every((d) => d.status === 'dead')).toBe(true);
    expect(all.items).toHaveLength((await totals()).dead);
    expect(all.nextCursor).toBeNull();
    const pending = await list('?status=pending');
    expect(pending.items.map((d) => d.status)).toEqual(Array(pending.pending).fill('pending'));
  });

  it('sends a dead delivery again, once', async () => {
    const id = await delivery(member, 'dead', 5, {
      locked_until: '2026-01-01T09:06:00.000Z',
      locked_by: 'w1',
    });
    const before = await totals();
    const started = Date.now();
    const retried = dataOf<NotificationDelivery>(await as(server, admin).post(`${URL}/${id}/retry`));
    expect(retried).toMatchObject({ id, status: 'pending', attempts: 0 });
    const row = await db()
      .selectFrom('notification_deliveries')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: 'pending', attempts: 0, locked_until: null, locked_by: null });
    expect(Date.parse(row.next_attempt_at)).toBeGreaterThanOrEqual(started - 1000);
    expect(Date.parse(row.next_attempt_at)).toBeLessThanOrEqual(Date.now() + 1000);
    expect(await totals()).toEqual({ pending: before.pending + 1, dead: before.dead - 1 });
    const audited = await db()
      .selectFrom('audit_log')
      .selectAll()
      .where('target', '=', `notification_delivery:${id}`)
      .execute();
    expect(audited).toMatchObject([{ actor_id: admin.user.id, action: 'notification.retried' }]);

    const again = await as(server, admin).post(`${URL}/${id}/retry`);
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe(ErrorCode.conflict);
    const sent = await delivery(member, 'sent', 6);
    expect((await as(server, admin).post(`${URL}/${sent}/retry`)).statusCode).toBe(409);
    const missing = await as(server, admin).post(`${URL}/no-such-delivery/retry`);
    expect(missing.statusCode).toBe(404);
    expect(missing.json().code).toBe(ErrorCode.notFound);
  });

  it('names bad input', async () => {
    const status = await as(server, admin).get(`${URL}?status=lost`);
    expect(status.statusCode).toBe(400);
    expect(status.json().details[0].field).toBe('query.status');
    const limit = await as(server, admin).get(`${URL}?limit=500`);
    expect(limit.json().details[0].field).toBe('query.limit');
    const cursor = await as(server, admin).get(`${URL}?cursor=nonsense`);
    expect(cursor.statusCode).toBe(400);
    expect(cursor.json().details[0].field).toBe('query.cursor');
  });
});
