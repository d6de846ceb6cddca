import type { Topic, TopicPage } from '@btalk/contracts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Suspense } from 'react';
import { MemoryRouter } from 'react-router';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { startI18n } from '../../../i18n/index.ts';
import { type Services, ServicesProvider } from '../../../services.tsx';
import ArchivedTopics from './ArchivedTopics.tsx';

const topic = (id: string, title: string): Topic =>
  ({
    id,
    title,
    visibility: 'organisation',
    coverColor: null,
    coverEmoji: null,
    memberCount: 2,
    postCount: 4,
    unreadCount: 0,
    archivedAt: '2026-11-24T10:00:00.000Z',
    lastActivityAt: '2026-11-23T10:00:00.000Z',
  }) as unknown as Topic;

type ListQuery = { archived?: string; q?: string; cursor?: string };

function renderArchive(list: (query: ListQuery) => Promise<TopicPage>) {
  const services = { api: { topics: { list: vi.fn(list) } } } as unknown as Services;
  render(
    <QueryClientProvider client={new QueryClient()}>
      <ServicesProvider services={services}>
        <MemoryRouter>
          <Suspense fallback={null}>
            <ArchivedTopics />
          </Suspense>
        </MemoryRouter>
      </ServicesProvider>
    </QueryClientProvider>,
  );
  return services.api.topics.list as unknown as ReturnType<typeof vi.fn>;
}

beforeAll(async () => {
  await startI18n();
});

describe('Home’s archive', () => {
  it('lists archived topics page by page and finds them by title', async () => {
    const list = renderArchive(async ({ q, cursor }) => {
      if (q) return { items: q === 'drill' ? [topic('t3', 'Fire drill 2025')] : [], nextCursor: null };
      return cursor
        ? { items: [topic('t2', 'Old budget')], nextCursor: null }
        : { items: [topic('t1', 'Office move')], nextCursor: 'next' };
    });
    const archive = await screen.findByRole('list', { name: 'Archived topics' }, { timeout: 4000 });
    expect(within(archive).getByRole('link', { name: /Office move/ })).toHaveAttribute('href', '/topics/t1');
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Show more' }));
    expect(await within(archive).findByRole('link', { name: /Old budget/ })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Show more' })).toBeNull();

    await user.type(screen.getByLabelText('Search archived topics by title'), 'drill');
    expect(await screen.findByRole('link', { name: /Fire drill 2025/ })).toBeInTheDocument();
    expect(list).toHaveBeenCalledWith(expect.objectContaining({ archived: 'true', q: 'drill' }));
    await user.clear(screen.getByLabelText('Search archived topics by title'));
    await user.type(screen.getByLabelText('Search archived topics by title'), 'zzz');
    expect(await screen.findByText('No archived topic has “zzz” in its title.')).toBeInTheDocument();
  });
});
