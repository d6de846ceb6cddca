import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';

/**
 * Serves the built web app. Hashed assets are cached for a year; index.html is never cached, and
 * any GET outside /api that matches no file gets index.html so that client-side routes load. The
 * build writes a brotli (`.br`) and a gzip (`.gz`) copy of each text file of 256 bytes or more
 * (apps/web/vite.config.ts): a browser that accepts one gets it, with `Vary: Accept-Encoding`.
 */
export async function registerWebApp(app: FastifyInstance, webDist: string | null): Promise<void> {
  const index = webDist ? path.join(webDist, 'index.html') : null;
  const built = index !== null && existsSync(index);
  if (built && webDist) {
    await app.register(fastifyStatic, {
      root: webDist,
      wildcard: false,
      index: false,
      preCompressed: true,
      setHeaders(reply, filePath) {
        const immutable = filePath.includes(`${path.sep}assets${path.sep}`);
        reply.header('cache-control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
    // Files outside assets/ (manifest, icons, service worker) are found by name at the root.
    app.get('/*', async (request, reply) => {
      const rel = decodeURIComponent(new URL(request.url, 'http://x').pathname).replace(/^\/+/, '');
      const file = path.join(webDist, rel);
      if (rel && file.startsWith(webDist + path.sep) && existsSync(file) && !rel.endsWith('/')) {
        return reply.sendFile(rel);
      }
      return reply.header('cache-control', 'no-cache').sendFile('index.html');
    });
  } else {
    app.get('/*', async (_request, reply) =>
      reply
        .status(503)
        .type('text/html; charset=utf-8')
        .send(
          '<!doctype html><title>BTalk</title><p>The web app is not built. Run <code>npm start</code>.</p>',
        ),
    );
  }
}
