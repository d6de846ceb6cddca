import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  plugins: [react()],
  test: {
    name: 'web',
    include: ['src/**/*.test.{ts,tsx}'],
    environment: 'jsdom',
    setupFiles: ['./src/test/setup.ts'],
    // Hang guards, not speed checks: on CI these tests share two cores with the browser tests
    // (scripts/test.sh runs both at once), where a 20 s test was seen to take 20 s.
    testTimeout: process.env.CI ? 60_000 : 20_000,
  },
});
