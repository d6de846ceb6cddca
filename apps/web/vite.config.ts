import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';

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
  ],
  server: {
    proxy: {
      '/api': { target: 'http://localhost:8080', ws: true },
      '/__': 'http://localhost:8080',
    },
  },
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: true },
});
