import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'server',
    include: ['src/**/*.test.ts'],
    environment: 'node',
    // Hang guards, not speed checks: on CI these tests share two cores with the browser tests
    // (scripts/test.sh runs both at once), where a 20 s test was seen to take 20 s.
    testTimeout: process.env.CI ? 60_000 : 20_000,
    hookTimeout: process.env.CI ? 90_000 : 30_000,
  },
});
