import { ErrorCode } from '@btalk/contracts';
import { SignJWT } from 'jose';
import { expect, it } from 'vitest';
import { describeEachDatabase } from '../../test/db.ts';
import { useTestServer } from '../../test/server.ts';
import { signedIn } from '../../test/session.ts';

describeEachDatabase('GET /api/me', (kind) => {
  const server = useTestServer(kind);
  const me = (headers: Record<string, string> = {}) =>
    server.request({ method: 'GET', url: '/api/me', headers });

  it('requires authentication', async () => {
    const res = await me();
    expect(res.statusCode).toBe(401);
    expect(res.json().code).toBe(ErrorCode.unauthenticated);
  });

  it('answers the signed-in person, presented', async () => {
    const { user, headers } = await signedIn(server, { display_name: 'มาลี ศรีสุข', locale: 'th' });
    const res = await me(headers);
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual({
      id: user.id,
      email: user.email,
      displayName: 'มาลี ศรีสุข',
      department: user.department,
      jobTitle: user.job_title,
      locale: 'th',
      role: 'member',
      abilities: {
        manageTerms: false,
        manageDeliveries: false,
        managePeople: false,
        manageUploads: false,
        createCallTrees: false,
      },
    });
    expect(res.body).not.toContain('subject');
  });

  it('answers what an administrator may do, decided by the policies that guard each action', async () => {
    const admin = await signedIn(server, { role: 'admin' });
    const res = await me(admin.headers);
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({
      role: 'admin',
      abilities: {
        manageTerms: true,
        manageDeliveries: true,
        managePeople: true,
        manageUploads: true,
        createCallTrees: true,
      },
    });
    // The abilities say what the server allows: the admin may list the terms' versions and the
    // outbox, a member may not.
    const member = await signedIn(server);
    for (const url of ['/api/terms/versions', '/api/admin/notification-deliveries?status=dead']) {
      expect((await server.request({ method: 'GET', url, headers: admin.headers })).statusCode).toBe(200);
      expect((await server.request({ method: 'GET', url, headers: member.headers })).statusCode).toBe(403);
    }
  });

  it('refuses a tampered token', async () => {
    const { token } = await signedIn(server);
    const [h, p, s] = token.split('.');
    const payload = JSON.parse(Buffer.from(p!, 'base64url').toString());
    const forged = `${h}.${Buffer.from(JSON.stringify({ ...payload, sub: 'someone-else' })).toString('base64url')}.${s}`;
    const res = await me({ authorization: `Bearer ${forged}` });
    expect(res.statusCode).toBe(401);
  });

  it('refuses an expired token and says to refresh', async () => {
    const { user } = await signedIn(server);
    const old = await server.ctx.tokens.sign(user.id, 'session', Math.floor(Date.now() / 1000) - 3600);
    const res = await me({ authorization: `Bearer ${old}` });
    expect(res.statusCode).toBe(401);
    expect(res.json().message).toContain('expired');
  });

  it('refuses unsigned tokens and tokens signed with another key', async () => {
    const { user } = await signedIn(server);
    const none = `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url')}.${Buffer.from(
      JSON.stringify({ sub: user.id, sid: 's', iat: 1, exp: 9999999999, aud: 'btalk-api' }),
    ).toString('base64url')}.`;
    expect((await me({ authorization: `Bearer ${none}` })).statusCode).toBe(401);
    const other = await new SignJWT({ sid: 's' })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(user.id)
      .setAudience('btalk-api')
      .setIssuedAt()
      .setExpirationTime('5m')
      .sign(new TextEncoder().encode('x'.repeat(48)));
    expect((await me({ authorization: `Bearer ${other}` })).statusCode).toBe(401);
  });

  it('refuses a disabled person and tokens issued before a sign-out everywhere', async () => {
    const disabled = await signedIn(server, { disabled: 1 });
    expect((await me(disabled.headers)).statusCode).toBe(401);
    const later = new Date(Date.now() + 5000).toISOString();
    const signedOut = await signedIn(server, { tokens_valid_after: later });
    expect((await me(signedOut.headers)).statusCode).toBe(401);
  });
});
