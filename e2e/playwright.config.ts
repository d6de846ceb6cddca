import { defineConfig } from '@playwright/test';

/** Browser tests in Debian's Chromium against a real BTalk server that global-setup starts. */
export default defineConfig({
  testDir: './tests',
  globalSetup: './global-setup.ts',
  fullyParallel: false,
  workers: 1,
  // One retry on CI, where a failed run loses the whole submission; the list reporter names any test that
  // passed only on its retry as "flaky", to be fixed, never ignored.
  retries: process.env.CI ? 1 : 0,
  // Hang guards, not speed checks: CI's machine can be several times slower than a workstation (a
  // screen's first load was seen past 5 s there), so a test gets 60 s and an expectation 15 s on CI.
  timeout: process.env.CI ? 60_000 : 30_000,
  expect: { timeout: process.env.CI ? 15_000 : 5_000 },
  reporter: process.env.CI ? [['list']] : [['list']],
  use: {
    // Recording a trace (its screencast above all) took about a third of the browser tests' time on
    // CI's 2 cores (two specs: 129 s with it, 88 s without); there only a retry records one.
    trace: process.env.CI ? 'on-first-retry' : 'retain-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
});
