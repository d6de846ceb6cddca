import { AcknowledgementResult, okEnvelope } from '@btalk/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { acknowledgeAnnouncement } from '../../commands/announcementAcknowledger.ts';
import { transact } from '../../commands/transact.ts';
import type { AppContext } from '../../context.ts';
import { ok } from '../../http/envelope.ts';
import { AppError, invalid } from '../../http/errors.ts';
import { perAddress } from '../../http/rateLimits.ts';
import { readAcknowledgeToken } from '../../notifications/acknowledgeLinks.ts';

/** The token of a push notification's Acknowledge action (notifications/acknowledgeLinks.ts). */
const PushAcknowledgeParams = z.object({
  token: z
    .string()
    .min(1)
    .max(200)
    .describe("The signed token of the push notification's Acknowledge action (its `acknowledgeUrl`)"),
});

/** The answer: when the person acknowledged (the first time, for a second press). */
const PushAcknowledgeResult = AcknowledgementResult.pick({ acknowledgedAt: true });

/**
 * `POST /api/announcements/acknowledge/:token`: the Acknowledge action of an important post's push
 * notification. The service worker has no session and no client key: the token, signed by this
 * server for one person and one post and ending after 14 days, is what proves who acknowledges what.
 * It acknowledges through the same command as `POST /api/posts/:postId/acknowledgement` (the person
 * must still see the post, the post must still ask; a second press answers the same time).
 */
export function pushAcknowledgeRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  // The token's 256-bit MAC cannot be guessed: the limit only caps the work per client.
  const limited = {
    rateLimit: perAddress(ctx.config.authRateLimitPerMinute, 'announcement-acknowledge-link'),
  };
  return async (app) => {
    app.post(
      '/announcements/acknowledge/:token',
      {
        config: limited,
        schema: {
          summary: "Acknowledge an important post from its push notification's action (no sign-in)",
          description:
            "The push notification of an important post carries `acknowledgeUrl`; its Acknowledge action POSTs there, with no body. Needs neither x-api-key nor a session: the token names the person and the post. A token that is not this server's, or has expired, is a 400 naming `token`; a disabled account is a 403; a post the person can no longer see is a 404; a post that no longer asks is a 409.",
          security: [],
          params: PushAcknowledgeParams,
          response: { 200: okEnvelope(PushAcknowledgeResult) },
        },
      },
      async (request) => {
        const reading = readAcknowledgeToken(ctx.secret, request.params.token);
        if (!reading.ok) {
          throw reading.reason === 'expired'
            ? invalid('token', 'has expired: open the post in BTalk and acknowledge it there')
            : invalid('token', 'is not an acknowledge link of this server: open the post in BTalk instead');
        }
        const acknowledgedAt = await transact(ctx, async (trx) => {
          const person = await trx
            .selectFrom('users')
            .selectAll()
            .where('id', '=', reading.userId)
            .executeTakeFirst();
          if (!person) throw invalid('token', 'names no BTalk account any more');
          if (person.disabled) throw new AppError('forbidden', 'This BTalk account is disabled.');
          const result = await acknowledgeAnnouncement(trx, person, reading.postId);
          return result.acknowledgedAt;
        });
        return ok({ acknowledgedAt });
      },
    );
  };
}
