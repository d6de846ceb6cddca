import { okEnvelope, PageViewRequest, PageViewResponse } from '@btalk/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { pageViewRecorder } from '../../commands/pageViewRecorder.ts';
import { transact } from '../../commands/transact.ts';
import type { AppContext } from '../../context.ts';
import { ok } from '../../http/envelope.ts';
import { AppError } from '../../http/errors.ts';
import { perPersonOrAddress } from '../../http/rateLimits.ts';

/** `POST /api/analytics/pageviews`: page views of the web app, kept on this server only. */
export function analyticsRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      '/analytics/pageviews',
      {
        config: {
          rateLimit: perPersonOrAddress(ctx, ctx.config.rateLimits.pageViewsPerMinute, 'pageViews'),
        },
        schema: {
          summary: 'Record a page view of the web app',
          body: PageViewRequest,
          response: { 200: okEnvelope(PageViewResponse) },
        },
      },
      async (request) => {
        if (!ctx.config.features.analytics) {
          throw new AppError('forbidden', 'Analytics is switched off on this server (ANALYTICS=false).');
        }
        const view = await transact(ctx, (trx) => pageViewRecorder(trx, request.body));
        return ok(view);
      },
    );
  };
}
