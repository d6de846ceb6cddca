import { Me, okEnvelope } from '@btalk/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { authenticate } from '../../auth/authenticate.ts';
import type { AppContext } from '../../context.ts';
import { ok } from '../../http/envelope.ts';
import { presentMe } from '../../presenters/user.ts';

/** `GET /api/me`: the signed-in person and what they may do. */
export function meRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/me',
      {
        onRequest: authenticate(ctx),
        // The session answers before the terms are accepted: the client needs to know who is signed in.
        config: { termsExempt: true },
        schema: { summary: 'The signed-in person', response: { 200: okEnvelope(Me) } },
      },
      async (request) => ok(presentMe(request.user)),
    );
  };
}
