import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach } from 'vitest';

// How long `findBy…` and `waitFor` wait: a hang guard, not a speed check. Testing Library's 1 s was
// seen to run out on CI, where these tests share two cores with the browser tests and a lazily
// loaded dialog's code (transformed on first import) arrived later than that.
configure({ asyncUtilTimeout: process.env.CI ? 15_000 : 5_000 });

afterEach(() => {
  cleanup();
  localStorage.clear();
});
