import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { AppError } from './errors.ts';

function same(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/**
 * Every `/api` request carries the web client's key in `x-api-key` (SPEC.md section 6).
 * Registered as an onRequest hook, so it runs before parsing, validation and authentication.
 */
export function registerApiKeyCheck(app: FastifyInstance, apiKey: string, exempt: (url: string) => boolean) {
  app.addHook('onRequest', async (request) => {
    if (!request.url.startsWith('/api/') && request.url !== '/api') return;
    if (exempt(request.url)) return;
    const sent = request.headers['x-api-key'];
    if (typeof sent !== 'string' || !same(sent, apiKey)) {
      throw new AppError(
        'badApiKey',
        sent
          ? "The x-api-key header is not this server's client key."
          : 'Send the client key in the x-api-key header.',
      );
    }
  });
}
