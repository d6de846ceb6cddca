import { okEnvelope, UnsubscribeRequest, UnsubscribeResult } from '@btalk/contracts';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requestClient } from '../../audit/audit.ts';
import { emailUnsubscriber } from '../../commands/emailUnsubscriber.ts';
import { transact } from '../../commands/transact.ts';
import type { AppContext } from '../../context.ts';
import { ok } from '../../http/envelope.ts';
import { invalid } from '../../http/errors.ts';
import { perAddress } from '../../http/rateLimits.ts';
import { verifyUnsubscribeToken } from '../../notifications/unsubscribe.ts';

/** The path of the e-mails' List-Unsubscribe header; app.ts exempts exactly it from the x-api-key check. */
export const UNSUBSCRIBE_PATH = '/api/notifications/unsubscribe';

/** The query of the one-click link of the List-Unsubscribe header. */
const UnsubscribeQuery = z.object({
  /** The signed token, when the link's POST comes from a mail client (RFC 8058). */
  token: z
    .string()
    .max(2000)
    .optional()
    .describe("The signed token, in the List-Unsubscribe header's link that mail clients POST to"),
});

/** Largest one-click form body: it is `List-Unsubscribe=One-Click`. */
const FORM_BODY_LIMIT = 4096;

/**
 * A mail client's one-click POST (RFC 8058) carries the token in the link's query and a form body
 * (`List-Unsubscribe=One-Click`, url-encoded or multipart). The body only says it is a one-click; the
 * token is what proves who may unsubscribe. So the body becomes what the web page sends, `{ token }`,
 * and one schema checks both.
 */
function oneClickBody(
  request: FastifyRequest,
  _body: string | Buffer,
  done: (err: Error | null, body?: unknown) => void,
) {
  const { token } = request.query as { token?: unknown };
  done(null, typeof token === 'string' ? { token } : {});
}

/**
 * `POST /api/notifications/unsubscribe`: stops notification e-mails for the person of a signed
 * unsubscribe link, without signing in, from the web page's button (JSON) or from the mail client's
 * one-click (a form POST without x-api-key). A GET does nothing: link scanners open links.
 */
export function unsubscribeRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  const limited = { rateLimit: perAddress(ctx.config.authRateLimitPerMinute) };
  return async (app) => {
    // The token's 256-bit MAC cannot be guessed: the limit only caps the work per client.
    for (const type of ['application/x-www-form-urlencoded', 'multipart/form-data']) {
      app.addContentTypeParser(type, { parseAs: 'string', bodyLimit: FORM_BODY_LIMIT }, oneClickBody);
    }

    app.post(
      '/notifications/unsubscribe',
      {
        config: limited,
        schema: {
          summary: 'Stop notification e-mails with the signed token of an e-mail link (no sign-in)',
          description:
            'JSON `{ token }` from the web page, or the one-click form POST of RFC 8058 (`List-Unsubscribe=One-Click`, the token in `?token=`). Needs neither x-api-key nor a session.',
          security: [],
          querystring: UnsubscribeQuery,
          body: UnsubscribeRequest,
          response: { 200: okEnvelope(UnsubscribeResult) },
        },
      },
      async (request) => {
        const userId = verifyUnsubscribeToken(ctx.secret, request.body.token);
        if (!userId) {
          throw invalid(
            'token',
            'is not an unsubscribe link of this server: open the link in the e-mail again, whole',
          );
        }
        const json = (request.headers['content-type'] ?? '').startsWith('application/json');
        const email = await transact(ctx, async (trx) => {
          const person = await trx
            .selectFrom('users')
            .selectAll()
            .where('id', '=', userId)
            .executeTakeFirst();
          if (!person) throw invalid('token', 'names no BTalk account any more');
          await emailUnsubscriber(
            trx,
            person,
            json ? 'web page' : 'one-click',
            requestClient(request, 'web'),
          );
          return person.email;
        });
        return ok({ email });
      },
    );
  };
}
