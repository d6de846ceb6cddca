import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { registerDevelopmentGraph } from './graph.ts';
import { LOGIN_PAGE_CSP, loginPage } from './loginPage.ts';
import { accountEnabled, DEVELOPMENT_PASSWORD, personByEmail } from './people.ts';
import type { DevelopmentDirectory } from './provider.ts';

function samePassword(sent: string): boolean {
  const a = Buffer.from(sent);
  const b = Buffer.from(DEVELOPMENT_PASSWORD);
  return a.length === b.length && timingSafeEqual(a, b);
}

function expiredPage(reply: FastifyReply) {
  return reply
    .status(400)
    .type('text/html; charset=utf-8')
    .send(
      '<!doctype html><meta charset="utf-8"><title>Sign-in expired</title><h1>This sign-in has expired</h1><p>It took too long or was already used. <a href="/login">Start again</a>.</p>',
    );
}

/**
 * Mounts the development directory under its issuer's path (`/directory`): the OpenID Connect
 * provider itself, its sign-in page (the provider's interactions) and the Graph subset.
 */
export async function mountDevelopmentDirectory(
  app: FastifyInstance,
  directory: DevelopmentDirectory,
): Promise<void> {
  const { provider } = directory;
  const mountPath = new URL(directory.issuer).pathname.replace(/\/+$/, '');
  const handle = provider.callback();

  await app.register(
    async (dir) => {
      // The directory is not part of BTalk's API: keep it out of the OpenAPI document.
      dir.addHook('onRoute', (route) => {
        route.schema = { ...route.schema, hide: true };
      });
      dir.addContentTypeParser(
        'application/x-www-form-urlencoded',
        { parseAs: 'string' },
        (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(String(body)))),
      );

      dir.get<{ Params: { uid: string } }>('/interaction/:uid', async (request, reply) => {
        let details: Awaited<ReturnType<typeof provider.interactionDetails>>;
        try {
          details = await provider.interactionDetails(request.raw, reply.raw);
        } catch {
          return expiredPage(reply);
        }
        if (details.uid !== request.params.uid) return expiredPage(reply);
        const hint = typeof details.params.login_hint === 'string' ? details.params.login_hint : '';
        return reply
          .type('text/html; charset=utf-8')
          .header('cache-control', 'no-store')
          .header('content-security-policy', LOGIN_PAGE_CSP)
          .send(loginPage({ action: `${mountPath}/interaction/${details.uid}/login`, email: hint }));
      });

      dir.post<{ Params: { uid: string }; Body: Record<string, string | undefined> }>(
        '/interaction/:uid/login',
        async (
          request: FastifyRequest<{ Params: { uid: string }; Body: Record<string, string | undefined> }>,
          reply,
        ) => {
          let details: Awaited<ReturnType<typeof provider.interactionDetails>>;
          try {
            details = await provider.interactionDetails(request.raw, reply.raw);
          } catch {
            return expiredPage(reply);
          }
          if (details.uid !== request.params.uid) return expiredPage(reply);
          const email = String(request.body?.email ?? '');
          const found = personByEmail(email);
          const person = found && samePassword(String(request.body?.password ?? '')) ? found : undefined;
          if (!person || !accountEnabled(person)) {
            return reply
              .status(401)
              .type('text/html; charset=utf-8')
              .header('cache-control', 'no-store')
              .header('content-security-policy', LOGIN_PAGE_CSP)
              .send(
                loginPage({
                  action: `${mountPath}/interaction/${details.uid}/login`,
                  email,
                  // As Entra ID says to a disabled account, only once the password was right.
                  error: person
                    ? 'Your account has been disabled. บัญชีของคุณถูกปิดใช้งาน'
                    : 'Wrong email or password. อีเมลหรือรหัสผ่านไม่ถูกต้อง',
                }),
              );
          }
          await directory.signedInInteractively(person, String(details.params.client_id ?? ''));
          reply.hijack();
          await provider.interactionFinished(
            request.raw,
            reply.raw,
            // Choosing whom to sign in as also answers a `prompt=select_account`.
            { login: { accountId: person.id }, select_account: {} },
            { mergeWithLastSubmission: false },
          );
        },
      );

      registerDevelopmentGraph(dir, directory);

      // Everything else is the OpenID Connect provider (a Koa app): hand it the raw request with
      // the mount path removed, and the body unread.
      await dir.register(async (oidc) => {
        oidc.removeAllContentTypeParsers();
        oidc.addContentTypeParser('*', (_request, _payload, done) => done(null, undefined));
        const toProvider = async (request: FastifyRequest, reply: FastifyReply) => {
          reply.hijack();
          const raw = request.raw as typeof request.raw & { originalUrl?: string };
          raw.originalUrl = raw.url;
          raw.url = (raw.url ?? '').slice(mountPath.length) || '/';
          await handle(raw, reply.raw);
        };
        oidc.all('/', toProvider);
        oidc.all('/*', toProvider);
      });
    },
    { prefix: mountPath },
  );
}
