import type { EventMessage, PendingAnnouncement, PendingAnnouncementList } from '@btalk/contracts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Suspense } from 'react';
import { MemoryRouter } from 'react-router';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { startI18n } from '../../../i18n/index.ts';
import { applyEvent } from '../../../realtime/cacheUpdates.ts';
import { type Services, ServicesProvider } from '../../../services.tsx';
import { ImportantStrip } from './ImportantStrip.tsx';

const item = (postId: string, over: Partial<PendingAnnouncement> = {}): PendingAnnouncement => ({
  postId,
  topicId: 't1',
  topicTitle: 'Safety',
  number: 4,
  authorName: 'Anong',
  excerpt: 'New fire exits from Monday',
  urgent: false,
  dueAt: null,
  markedAt: '2026-11-27T09:00:00.000Z',
  ...over,
});

function renderStrip(pending: () => Promise<PendingAnnouncementList>, acknowledge = vi.fn()) {
  const qc = new QueryClient();
  const services = {
    api: { announcements: { pending: vi.fn(pending), acknowledge } },
  } as unknown as Services;
  render(
    <QueryClientProvider client={qc}>
      <ServicesProvider services={services}>
        <MemoryRouter>
          <Suspense fallback={null}>
            <p>Home</p>
            <ImportantStrip />
          </Suspense>
        </MemoryRouter>
      </ServicesProvider>
    </QueryClientProvider>,
  );
  return { qc, pending: services.api.announcements.pending as unknown as ReturnType<typeof vi.fn> };
}

const event = (name: string, payload: unknown, room: string): EventMessage => ({
  type: 'event',
  seq: 1,
  room,
  name,
  payload,
  actorId: 'u-anong',
  createdAt: '2026-11-27T09:00:00.000Z',
});

beforeAll(async () => {
  await startI18n();
});

describe('Home’s Important strip', () => {
  it('lists what I have not acknowledged, urgent first as the server orders it, each with its link', async () => {
    renderStrip(async () => ({
      items: [
        item('p2', { urgent: true, number: 7, excerpt: 'Gas leak drill', dueAt: '2099-01-01T09:00:00.000Z' }),
        item('p1'),
      ],
      total: 3,
    }));
    // The list and its texts load with the first thing to acknowledge.
    const list = await screen.findByRole('list', { name: 'Important' }, { timeout: 4000 });
    expect(screen.getByRole('heading', { name: 'Important', level: 2 })).toBeInTheDocument();
    const rows = within(list).getAllByRole('listitem');
    expect(within(rows[0]!).getByRole('link')).toHaveAttribute('href', '/topics/t1#post-7');
    expect(within(rows[0]!).getByRole('link')).toHaveTextContent('Urgent · Anong in Safety');
    expect(within(rows[0]!).getByText(/^Due /)).toBeInTheDocument();
    expect(within(rows[1]!).getByText('New fire exits from Monday')).toBeInTheDocument();
    expect(within(rows[1]!).getByRole('button', { name: 'Acknowledge' })).toHaveAccessibleDescription(
      /New fire exits from Monday/,
    );
    expect(screen.getByText('and 1 more')).toBeInTheDocument();
  });

  it('is hidden when there is nothing to acknowledge', async () => {
    const { pending } = renderStrip(async () => ({ items: [], total: 0 }));
    await waitFor(() => expect(pending).toHaveBeenCalled());
    expect(screen.getByText('Home')).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Important' })).toBeNull();
  });

  it('drops a post acknowledged here, and one acknowledged elsewhere as the stream says', async () => {
    const acknowledge = vi.fn(async () => ({
      acknowledgedAt: '2026-11-27T09:30:00.000Z',
      totals: { audience: 3, seen: 1, acknowledged: 1, notYet: 2 },
    }));
    const { qc } = renderStrip(
      async () => ({ items: [item('p1'), item('p2', { excerpt: 'Second' })], total: 2 }),
      acknowledge,
    );
    const list = await screen.findByRole('list', { name: 'Important' });
    await userEvent.setup().click(within(list).getAllByRole('button', { name: 'Acknowledge' })[0]!);
    expect(acknowledge).toHaveBeenCalledWith('p1');
    await waitFor(() => expect(within(list).getAllByRole('listitem')).toHaveLength(1));
    act(() =>
      applyEvent(
        qc,
        event('me.acknowledged', { topicId: 't1', postId: 'p2', acknowledgedAt: 'x' }, 'user:me'),
        { userId: 'me' },
      ),
    );
    await waitFor(() => expect(screen.queryByRole('heading', { name: 'Important' })).toBeNull());
  });

  it('fetches the list again when a post is marked important', async () => {
    let items: PendingAnnouncement[] = [];
    const { qc, pending } = renderStrip(async () => ({ items, total: items.length }));
    await waitFor(() => expect(pending).toHaveBeenCalledTimes(1));
    items = [item('p5', { excerpt: 'Just marked' })];
    act(() =>
      applyEvent(
        qc,
        event('announcement.marked', { topicId: 't1', postId: 'p5', announcement: null }, 'topic:t1'),
        { userId: 'me' },
      ),
    );
    expect(await screen.findByText('Just marked')).toBeInTheDocument();
  });
});
