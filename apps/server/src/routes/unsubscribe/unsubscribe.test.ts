import { ErrorCode } from '@btalk/contracts';
import { expect, it } from 'vitest';
import { newId, now } from '../../ids.ts';
import { DEFAULT_SETTINGS, loadSettings, saveSettings } from '../../notifications/settings.ts';
import { unsubscribeToken } from '../../notifications/unsubscribe.ts';
import { describeEachDatabase } from '../../test/db.ts';
import { useTestServer } from '../../test/server.ts';
import { signedIn } from '../../test/session.ts';
import { as, dataOf } from '../../test/topics.ts';

const PATH = '/api/notifications/unsubscribe';

describeEachDatabase('POST /api/notifications/unsubscribe', (kind) => {
  const server = useTestServer(kind);
  const db = () => server.ctx.db.kysely;
  const tokenOf = (userId: string) => unsubscribeToken(server.ctx.secret, userId);
  const emailOn = async (userId: string) => (await loadSettings(db(), userId)).channels.email;
  /** The one-click POST of a mail client (RFC 8058): a form body, the token in the query, no x-api-key. */
  const oneClick = (
    query: string,
    contentType = 'application/x-www-form-urlencoded',
    payload = 'List-Unsubscribe=One-Click',
  ) =>
    server.app.inject({
      method: 'POST',
      url: `${PATH}${query}`,
      headers: { 'content-type': contentType },
      payload,
    });

  it('needs no sign-in: the web page posts the token and e-mail stops, the rest of the settings stay', async () => {
    const { user } = await signedIn(server);
    const before = { ...DEFAULT_SETTINGS, kinds: { ...DEFAULT_SETTINGS.kinds, post: false } };
    await saveSettings(db(), user.id, before, now());
    const answer = await as(server, null).post(PATH, { token: tokenOf(user.id) });
    expect(dataOf(answer)).toEqual({ email: user.email });
    const after = await loadSettings(db(), user.id);
    expect(after).toEqual({ ...before, channels: { ...before.channels, email: false } });

    const audited = await db()
      .selectFrom('audit_log')
      .selectAll()
      .where('target', '=', `user:${user.id}`)
      .execute();
    expect(audited).toMatchObject([
      { actor_id: user.id, action: 'notifications.email_unsubscribed', client_kind: 'web' },
    ]);
    expect(JSON.parse(audited[0]?.details ?? '{}')).toEqual({ via: 'web page' });

    // Again: the same answer, nothing more recorded.
    expect(dataOf(await as(server, null).post(PATH, { token: tokenOf(user.id) }))).toEqual({
      email: user.email,
    });
    const again = await db()
      .selectFrom('audit_log')
      .select('id')
      .where('target', '=', `user:${user.id}`)
      .execute();
    expect(again).toHaveLength(1);
  });

  it("takes a mail client's one-click form POST without x-api-key", async () => {
    const { user } = await signedIn(server);
    const answer = await oneClick(`?token=${encodeURIComponent(tokenOf(user.id))}`);
    expect(answer.statusCode).toBe(200);
    expect(answer.json()).toEqual({ code: 0, data: { email: user.email } });
    expect(await emailOn(user.id)).toBe(false);
    const [entry] = await db()
      .selectFrom('audit_log')
      .selectAll()
      .where('target', '=', `user:${user.id}`)
      .execute();
    expect(JSON.parse(entry?.details ?? '{}')).toEqual({ via: 'one-click' });
  });

  it('takes the one-click POST as multipart/form-data too', async () => {
    const { user } = await signedIn(server);
    const boundary = 'xYzZY';
    const body = `--${boundary}\r\nContent-Disposition: form-data; name="List-Unsubscribe"\r\n\r\nOne-Click\r\n--${boundary}--\r\n`;
    const answer = await oneClick(
      `?token=${tokenOf(user.id)}`,
      `multipart/form-data; boundary=${boundary}`,
      body,
    );
    expect(answer.statusCode).toBe(200);
    expect(await emailOn(user.id)).toBe(false);
  });

  it('refuses a forged or garbled token with 400 naming the token', async () => {
    const { user } = await signedIn(server);
    const mac = tokenOf(user.id).split('.')[1];
    for (const token of [
      `${newId()}.${mac}`,
      `${user.id}.${'A'.repeat(43)}`,
      'not-a-token-at-all',
      `${tokenOf(user.id)}x`,
    ]) {
      const answer = await as(server, null).post(PATH, { token });
      expect(answer.statusCode).toBe(400);
      expect(answer.json()).toMatchObject({ code: ErrorCode.validation, details: [{ field: 'token' }] });
    }
    const forgedOneClick = await oneClick(`?token=${newId()}.${mac}`);
    expect(forgedOneClick.statusCode).toBe(400);
    expect(forgedOneClick.json().details).toEqual([{ field: 'token', reason: expect.any(String) }]);
    expect(await emailOn(user.id)).toBe(true);
  });

  it('refuses a token of nobody, a missing token and unknown fields', async () => {
    const nobody = await as(server, null).post(PATH, { token: tokenOf(newId()) });
    expect(nobody.statusCode).toBe(400);
    expect(nobody.json().details).toEqual([{ field: 'token', reason: expect.any(String) }]);

    const { user } = await signedIn(server);
    const extra = await as(server, null).post(PATH, { token: tokenOf(user.id), email: 'someone@else.test' });
    expect(extra.statusCode).toBe(400);
    expect(extra.json().code).toBe(ErrorCode.validation);
    expect((await as(server, null).post(PATH, {})).statusCode).toBe(400);
    const noToken = await oneClick('');
    expect(noToken.statusCode).toBe(400);
    expect(noToken.json().details[0].field).toContain('token');
    expect(await emailOn(user.id)).toBe(true);
  });

  it('does nothing on GET (link scanners open links) and exempts only this path from x-api-key', async () => {
    const { user } = await signedIn(server);
    const get = await server.app.inject({ method: 'GET', url: `${PATH}?token=${tokenOf(user.id)}` });
    expect(get.statusCode).toBe(404);
    expect(await emailOn(user.id)).toBe(true);
    for (const url of [`${PATH}x`, `${PATH}/x`, '/api/notifications/read']) {
      const other = await server.app.inject({ method: 'POST', url, payload: {} });
      expect(other.json().code).toBe(ErrorCode.badApiKey);
    }
  });
});
