import type { Topic } from '@btalk/contracts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { startI18n } from '../../../i18n/index.ts';
import { type Services, ServicesProvider } from '../../../services.tsx';
import { TOPIC_PAGE_SIZE, TopicList } from './TopicList.tsx';

// Whether react-virtuoso was loaded at all: the mock's factory runs on its first import only.
const virtuoso = vi.hoisted(() => ({ loaded: false }));
vi.mock('react-virtuoso', async (importOriginal) => {
  virtuoso.loaded = true;
  return importOriginal();
});

const topic = (n: number): Topic =>
  ({
    id: `t${n}`,
    title: `Topic ${n}`,
    visibility: 'public',
    coverColor: null,
    coverEmoji: null,
    memberCount: 2,
    postCount: 3,
    unreadCount: n === 1 ? 4 : 0,
    archivedAt: null,
    lastActivityAt: '2026-11-23T10:00:00.000Z',
  }) as unknown as Topic;

function renderList(count: number, nextCursor: string | null) {
  const services = {
    api: {
      topics: {
        list: async () => ({ items: Array.from({ length: count }, (_, i) => topic(i + 1)), nextCursor }),
      },
    },
  } as unknown as Services;
  render(
    <QueryClientProvider client={new QueryClient()}>
      <ServicesProvider services={services}>
        <MemoryRouter>
          <TopicList scope="mine" />
        </MemoryRouter>
      </ServicesProvider>
    </QueryClientProvider>,
  );
}

beforeAll(async () => {
  await startI18n();
});

// The file's two tests run in this order: the short list first, while react-virtuoso is not loaded.
describe('Home’s topic list', () => {
  it('renders one short page whole, as a named list, without loading the virtualised list', async () => {
    renderList(3, null);
    const list = await screen.findByRole('list', { name: 'Topics' });
    const links = within(list).getAllByRole('link');
    expect(links.map((link) => link.getAttribute('href'))).toEqual([
      '/topics/t1',
      '/topics/t2',
      '/topics/t3',
    ]);
    expect(within(list).getAllByRole('listitem')).toHaveLength(3);
    expect(within(list).getByText('4 unread')).toBeInTheDocument();
    expect(virtuoso.loaded).toBe(false);
  });

  it('virtualises a list with more pages to come', async () => {
    renderList(TOPIC_PAGE_SIZE, 'next');
    // Virtuoso names its scroller; jsdom lays nothing out, so it renders no rows.
    expect(await screen.findByLabelText('Topics')).toBeInTheDocument();
    expect(virtuoso.loaded).toBe(true);
  });
});
