import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';

/** Text files worth compressing (source maps are only fetched by developer tools). */
const COMPRESSIBLE = /\.(?:js|mjs|css|html|svg|json|webmanifest|txt)$/;
/**
 * Below this a compressed copy saves next to nothing. Low on purpose: the first screen loads many
 * small chunks, and each still shrinks by a third or more.
 */
const MIN_BYTES = 256;

/**
 * Writes `<file>.br` (brotli, quality 11) and `<file>.gz` (gzip, level 9) next to every compressible
 * file of the build of 256 bytes or more, once everything else (the service worker too) is written; the server
 * sends them to browsers that accept them (apps/server/src/web/static.ts, `preCompressed`).
 */
function precompress(): Plugin {
  let outDir = 'dist';
  const brotli = promisify(brotliCompress);
  const gz = promisify(gzip);
  return {
    name: 'btalk-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    closeBundle: {
      order: 'post',
      sequential: true,
      async handler() {
        const files = (await readdir(outDir, { recursive: true, withFileTypes: true }))
          .filter((entry) => entry.isFile() && COMPRESSIBLE.test(entry.name))
          .map((entry) => path.join(entry.parentPath, entry.name));
        await Promise.all(
          files.map(async (file) => {
            const bytes = await readFile(file);
            if (bytes.length < MIN_BYTES) return;
            const [br, gzipped] = await Promise.all([
              brotli(bytes, {
                params: {
                  [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
                  [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
                  [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
                },
              }),
              gz(bytes, { level: 9 }),
            ]);
            await Promise.all([writeFile(`${file}.br`, br), writeFile(`${file}.gz`, gzipped)]);
          }),
        );
      },
    },
  };
}

// The dev server proxies the API and the web configuration to a BTalk server on port 8080.
export default defineConfig({
  plugins: [
    react(),
    // Installable app with the brand colours; the service worker precaches the shell so that the
    // built app opens offline, and keeps the last start-up configuration for that case.
    VitePWA({
      registerType: 'autoUpdate',
      injectRegister: 'script-defer',
      includeAssets: ['icon.svg', 'apple-touch-icon.png'],
      manifest: {
        name: 'BTalk',
        short_name: 'BTalk',
        description: 'Workplace chat, topics and call trees',
        theme_color: '#472F92',
        background_color: '#ffffff',
        display: 'standalone',
        start_url: '/',
        scope: '/',
        icons: [
          { src: '/icon-192.png', sizes: '192x192', type: 'image/png' },
          { src: '/icon-512.png', sizes: '512x512', type: 'image/png' },
          { src: '/icon-maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
          { src: '/icon.svg', sizes: 'any', type: 'image/svg+xml' },
        ],
      },
      workbox: {
        // The first visit is controlled at once, so it already works offline afterwards.
        clientsClaim: true,
        skipWaiting: true,
        globPatterns: ['**/*.{js,css,html,svg,png,woff2}'],
        navigateFallback: '/index.html',
        // The API and the configuration are never answered with the app's page.
        navigateFallbackDenylist: [/^\/api\//, /^\/__\//, /^\/directory\//],
        // Push notifications and their clicks (public/push-sw.js, copied as it is).
        importScripts: ['push-sw.js'],
        runtimeCaching: [
          {
            urlPattern: ({ url }) => url.pathname === '/__/firebase/init.json',
            handler: 'NetworkFirst',
            options: { cacheName: 'btalk-config', networkTimeoutSeconds: 5 },
          },
        ],
      },
    }),
    // Last: it compresses what the plugins above wrote, the service worker included.
    precompress(),
  ],
  server: {
    proxy: {
      '/api': { target: 'http://localhost:8080', ws: true },
      '/__': 'http://localhost:8080',
    },
  },
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: true },
});
