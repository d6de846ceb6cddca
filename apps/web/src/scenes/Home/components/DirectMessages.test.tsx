import type { Person, Topic } from '@btalk/contracts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Suspense } from 'react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { startI18n } from '../../../i18n/index.ts';
import { type Services, ServicesProvider } from '../../../services.tsx';
import { DirectMessages } from './DirectMessages.tsx';

const me: Person = { id: 'me', displayName: 'Kanya', email: 'kanya@btalk.test', department: null };
const somchai = { id: 'u-s', displayName: 'Somchai', email: 'somchai@btalk.test', department: 'Ops' };
const malee = { id: 'u-m', displayName: 'Malee', email: 'malee@btalk.test', department: 'Ops' };

const conversation = (id: string, people: Person[], unreadCount: number): Topic =>
  ({
    id,
    title: people.map((p) => p.displayName).join(', '),
    visibility: 'direct',
    participants: people,
    coverColor: null,
    coverEmoji: null,
    memberCount: people.length,
    postCount: 2,
    unreadCount,
    archivedAt: null,
    lastActivityAt: '2026-11-23T10:00:00.000Z',
  }) as unknown as Topic;

function renderSection(start = vi.fn()) {
  const services = {
    api: {
      me: { get: async () => me },
      conversations: {
        list: async () => ({
          items: [conversation('c1', [me, somchai], 3), conversation('c2', [malee, me, somchai], 0)],
          nextCursor: 'more',
        }),
        start,
      },
      users: {
        search: async () => ({
          items: [somchai, malee].map((p) => ({ ...p, jobTitle: null })),
          nextCursor: null,
        }),
      },
    },
    session: { getState: () => ({ aad_token: null }), subscribe: () => () => {} },
  } as unknown as Services;
  render(
    <QueryClientProvider client={new QueryClient()}>
      <ServicesProvider services={services}>
        <MemoryRouter initialEntries={['/']}>
          <Routes>
            <Route
              path="/"
              element={
                <Suspense fallback={null}>
                  <DirectMessages />
                </Suspense>
              }
            />
            <Route path="/topics/:id" element={<p>Conversation page</p>} />
          </Routes>
        </MemoryRouter>
      </ServicesProvider>
    </QueryClientProvider>,
  );
}

beforeAll(async () => {
  await startI18n();
});

describe('Home’s direct messages', () => {
  it('lists my conversations by the other people’s names, with unread counts and more to show', async () => {
    renderSection();
    expect(await screen.findByRole('heading', { name: 'Direct messages', level: 2 })).toBeInTheDocument();
    const list = await screen.findByRole('list', { name: 'Direct messages' });
    const links = within(list).getAllByRole('link');
    expect(links.map((l) => l.getAttribute('href'))).toEqual(['/topics/c1', '/topics/c2']);
    await within(list).findByText('Somchai');
    expect(within(links[0]!).getByText('3 unread')).toBeInTheDocument();
    expect(within(links[1]!).getByText('Malee, Somchai')).toBeInTheDocument();
    expect(within(links[1]!).queryByText(/unread/)).toBeNull();
    expect(screen.getByRole('button', { name: 'Show more' })).toBeInTheDocument();
  });

  it('starts a conversation with the people picked in "New message" and opens it', async () => {
    const start = vi.fn(async (_ids: string[]) => conversation('c9', [me, somchai, malee], 0));
    renderSection(start);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'New message' }));
    const dialog = await screen.findByRole('dialog', { name: 'New message' });
    const startButton = within(dialog).getByRole('button', { name: 'Start conversation' });
    expect(startButton).toBeDisabled();
    const picker = within(dialog).getByLabelText('People');
    await user.type(picker, 'So');
    await user.click(await screen.findByRole('option', { name: /Somchai/ }));
    await user.type(picker, 'Ma');
    await user.click(await screen.findByRole('option', { name: /Malee/ }));
    await user.click(startButton);
    expect(start).toHaveBeenCalledWith(['u-s', 'u-m']);
    expect(await screen.findByText('Conversation page')).toBeInTheDocument();
  });
});
