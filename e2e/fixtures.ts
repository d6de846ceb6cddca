import { test as base } from '@playwright/test';

/** Playwright's `test`, with `baseURL` pointing at the server that global-setup started. */
export const test = base.extend({
  // biome-ignore lint/correctness/noEmptyPattern: Playwright reads the fixtures a fixture needs from this pattern.
  baseURL: async ({}, use) => {
    const url = process.env.BTALK_E2E_URL;
    if (!url) throw new Error('BTALK_E2E_URL is not set: run the browser tests with `npm run test -w e2e`.');
    await use(url);
  },
});

export { expect } from '@playwright/test';
