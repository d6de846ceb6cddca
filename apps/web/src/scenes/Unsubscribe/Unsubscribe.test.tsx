import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { beforeAll, describe, expect, it } from 'vitest';
import { startI18n } from '../../i18n/index.ts';
import { type Services, ServicesProvider } from '../../services.tsx';
import Unsubscribe from './Unsubscribe.tsx';

beforeAll(async () => {
  const i18n = await startI18n();
  await i18n.changeLanguage('en');
});

/** Renders the page at `url` with an API whose unsubscribe answers as `answer` does. */
function renderAt(url: string, answer: (token: string) => Promise<{ email: string }>) {
  const calls: string[] = [];
  const services = {
    api: {
      notifications: {
        unsubscribe: (token: string) => {
          calls.push(token);
          return answer(token);
        },
      },
    },
  } as unknown as Services;
  const router = createMemoryRouter([{ path: '/unsubscribe', element: <Unsubscribe /> }], {
    initialEntries: [url],
  });
  render(
    <QueryClientProvider client={new QueryClient()}>
      <ServicesProvider services={services}>
        <RouterProvider router={router} />
      </ServicesProvider>
    </QueryClientProvider>,
  );
  return calls;
}

describe('the unsubscribe page', () => {
  it('asks first, then stops the e-mails with the link’s token and names the address', async () => {
    const calls = renderAt('/unsubscribe?token=user-1.mac', async () => ({ email: 'somsri@btalk.test' }));
    expect(await screen.findByRole('heading', { name: 'Stop notification e-mails?' })).toBeInTheDocument();
    // Opening the page changes nothing: link scanners open links too.
    expect(calls).toEqual([]);
    await userEvent.click(screen.getByRole('button', { name: 'Unsubscribe' }));
    expect(
      await screen.findByText('You will no longer receive notification e-mails at somsri@btalk.test.'),
    ).toBeInTheDocument();
    expect(calls).toEqual(['user-1.mac']);
    expect(screen.getByRole('link', { name: 'Notification settings' })).toHaveAttribute(
      'href',
      '/settings/notifications',
    );
  });

  it('says in a sentence when the link is not valid', async () => {
    renderAt('/unsubscribe?token=forged.mac', () =>
      Promise.reject({ code: 4000, message: 'token: is not an unsubscribe link', details: [] }),
    );
    await userEvent.click(await screen.findByRole('button', { name: 'Unsubscribe' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('This unsubscribe link is not valid.');
  });

  it('says so when the link has no token, and offers no button', async () => {
    renderAt('/unsubscribe', async () => ({ email: '' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('This link is incomplete.');
    expect(screen.queryByRole('button', { name: 'Unsubscribe' })).toBeNull();
  });
});
