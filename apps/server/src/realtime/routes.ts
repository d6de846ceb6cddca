import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../context.ts';
import { AppError } from '../http/errors.ts';
import { RealtimeHub } from './hub.ts';

/**
 * `GET /api/realtime`: the WebSocket event stream. No x-api-key header and no token in the URL
 * (browsers cannot set headers on a WebSocket, and URLs end up in logs): the first message carries
 * both. The Origin is checked before the upgrade.
 */
export function realtimeRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (api) => {
    const hub = new RealtimeHub(ctx, api.log);
    await hub.start();
    // Sockets close as soon as the server starts closing; the cluster signal stays until requests
    // in flight have finished, so their commits still reach the other instances at once.
    api.addHook('preClose', async () => {
      hub.drain();
    });
    api.addHook('onClose', async () => {
      await hub.stop();
    });
    const allowed = new Set(ctx.config.realtime.allowedOrigins);

    api.get(
      '/realtime',
      {
        websocket: true,
        schema: { hide: true },
        onRequest: async (request) => {
          // Browsers always send Origin; other clients (apps, tools) are not what Origin checks protect.
          const origin = request.headers.origin;
          if (origin !== undefined && !allowed.has(origin)) {
            throw new AppError(
              'forbidden',
              `Origin ${origin} may not open the realtime stream: add it to REALTIME_ALLOWED_ORIGINS.`,
            );
          }
        },
      },
      (socket) => hub.accept(socket),
    );
  };
}
