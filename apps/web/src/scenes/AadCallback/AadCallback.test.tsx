import { SIGN_IN_BROWSER_FIELD as CONTRACT_FIELD } from '@btalk/contracts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { startI18n } from '../../i18n/index.ts';
import { type Services, ServicesProvider } from '../../services.tsx';
import { SIGN_IN_BROWSER_FIELD } from '../../signin/signIn.ts';
import AadCallback from './AadCallback.tsx';

let i18n: Awaited<ReturnType<typeof startI18n>>;
beforeAll(async () => {
  i18n = await startI18n();
  await i18n.changeLanguage('en');
});
afterEach(async () => {
  vi.restoreAllMocks();
  await i18n.changeLanguage('en');
});

/** Renders /aad/callback at `url` with an API whose code exchange answers as `exchange` does. */
function renderAt(url: string, exchange: () => Promise<unknown>) {
  const services = {
    config: { directory: { signInMode: 'redirect' } },
    session: { getState: () => ({ last_page: '/' }) },
    api: { auth: { exchangeCode: exchange } },
  } as unknown as Services;
  const router = createMemoryRouter(
    [
      { path: '/aad/callback', element: <AadCallback /> },
      { path: '/login', element: <p>login</p> },
    ],
    { initialEntries: [url] },
  );
  render(
    <QueryClientProvider client={new QueryClient()}>
      <ServicesProvider services={services}>
        <RouterProvider router={router} />
      </ServicesProvider>
    </QueryClientProvider>,
  );
}

// The server's answer when the callback was not posted by the browser that started the sign-in.
const otherBrowser = () =>
  Promise.reject({
    code: 4000,
    message: 'headers.cookie: has no btalk-signin cookie: …',
    details: [{ field: CONTRACT_FIELD, reason: 'has no btalk-signin cookie: …' }],
  });

describe('the sign-in callback page', () => {
  it('names the field the server names for another browser', () => {
    expect(SIGN_IN_BROWSER_FIELD).toBe(CONTRACT_FIELD);
  });

  it('says to start again from this browser when another browser started the sign-in', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    renderAt('/aad/callback?code=c1&state=s-en', otherBrowser);
    expect(await screen.findByRole('alert')).toHaveTextContent(
      "This sign-in was started in another browser, or this browser's cookies were cleared meanwhile, so it cannot finish here. Start signing in again from this browser.",
    );
    expect(screen.getByRole('link', { name: 'Try again' })).toHaveAttribute('href', '/login');
  });

  it('says it in Thai too', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    await i18n.changeLanguage('th');
    renderAt('/aad/callback?code=c1&state=s-th', otherBrowser);
    expect(await screen.findByRole('alert')).toHaveTextContent('โปรดเริ่มเข้าสู่ระบบใหม่จากเบราว์เซอร์นี้');
  });

  it('keeps the general message for other refusals', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    renderAt('/aad/callback?code=c1&state=s-used', () =>
      Promise.reject({
        code: 4000,
        message: 'body.state: matches no open sign-in attempt',
        details: [{ field: 'body.state', reason: 'matches no open sign-in attempt' }],
      }),
    );
    expect(await screen.findByRole('alert')).toHaveTextContent('The sign-in could not be completed.');
  });
});
