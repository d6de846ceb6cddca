import type {
  AnnouncementPeoplePage,
  AnnouncementPerson,
  AnnouncementReport,
  AnnouncementTotals,
  EventMessage,
} from '@btalk/contracts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Suspense } from 'react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { AnnouncementPeopleFilters } from '../../api/announcements.ts';
import { startI18n } from '../../i18n/index.ts';
import { applyEvent, loadAnnouncementCache } from '../../realtime/cacheUpdates.ts';
import { type Services, ServicesProvider } from '../../services.tsx';
import { dialogs } from '../../stores/dialogs.ts';
import Acknowledgements from './Acknowledgements.tsx';

// The announcements' cache helpers load on first use in the app; here they are there from the start,
// so an event applies at once.
beforeAll(async () => {
  await loadAnnouncementCache();
});

const totals = (acknowledged: number, seen = acknowledged + 2, audience = 40): AnnouncementTotals => ({
  audience,
  seen,
  acknowledged,
  notYet: audience - acknowledged,
});

function report(acknowledged: number, over: Partial<AnnouncementReport> = {}): AnnouncementReport {
  return {
    postId: 'p1',
    topicId: 't1',
    announcement: {
      markedAt: '2026-11-27T09:00:00.000Z',
      urgent: true,
      dueAt: null,
      remindAfterMinutes: null,
      totals: totals(acknowledged),
    },
    totals: totals(acknowledged),
    departments: [
      { name: 'Operations', ...totals(acknowledged, acknowledged, 30) },
      { name: 'Finance', ...totals(0, 0, 10) },
    ],
    branches: [
      {
        id: 'm1',
        displayName: 'Somchai',
        managerId: null,
        depth: 0,
        ...totals(acknowledged, acknowledged, 40),
      },
      { id: 'm2', displayName: 'Malee', managerId: 'm1', depth: 1, ...totals(1, 1, 12) },
    ],
    remindedAt: null,
    canRemind: true,
    ...over,
  };
}

const person = (id: string, name: string, acknowledgedAt: string | null = null): AnnouncementPerson => ({
  id,
  displayName: name,
  email: `${id}@btalk.test`,
  department: 'Operations',
  managerId: 'm1',
  managerName: 'Somchai',
  seenAt: acknowledgedAt ? '2026-11-27T09:10:00.000Z' : null,
  acknowledgedAt,
});

interface World {
  acknowledged: number;
  pending: AnnouncementPerson[];
}

function renderReport(world: World, extra: Record<string, unknown> = {}) {
  const qc = new QueryClient();
  const api = {
    me: { get: async () => ({ id: 'u-anong' }) },
    topics: { get: async () => ({ id: 't1', title: 'Safety', participants: [] }) },
    posts: {
      get: async () => ({
        id: 'p1',
        topicId: 't1',
        number: 3,
        body: 'The **fire exits** change on Monday',
        author: { id: 'u-anong', displayName: 'Anong' },
      }),
    },
    announcements: {
      report: vi.fn(async (_postId: string, { department }: { department?: string }) =>
        department ? report(0, { totals: totals(0, 0, 10) }) : report(world.acknowledged),
      ),
      people: vi.fn(
        async (_postId: string, filters: AnnouncementPeopleFilters): Promise<AnnouncementPeoplePage> => ({
          items:
            filters.status === 'pending'
              ? world.pending
              : [person('u9', 'Kanya', '2026-11-27T09:20:00.000Z')],
          nextCursor: null,
        }),
      ),
      remind: vi.fn(),
      exportCsv: vi.fn(),
      ...extra,
    },
  };
  const services = { api } as unknown as Services;
  render(
    <QueryClientProvider client={qc}>
      <ServicesProvider services={services}>
        <MemoryRouter initialEntries={['/topics/t1/posts/p1/acknowledgements']}>
          <Suspense fallback={null}>
            <Routes>
              <Route path="/topics/:topicId/posts/:postId/acknowledgements" element={<Acknowledgements />} />
            </Routes>
          </Suspense>
        </MemoryRouter>
      </ServicesProvider>
    </QueryClientProvider>,
  );
  return { qc, api };
}

const figure = (name: string) =>
  within(screen.getByRole('region', { name: 'Totals' }))
    .getByRole('region', { name })
    .querySelector('output');

beforeAll(async () => {
  await startI18n();
});
afterEach(() => {
  vi.restoreAllMocks();
});

describe('the acknowledgements report', () => {
  it('shows the figures, departments, branches and who has not acknowledged with their manager', async () => {
    renderReport({ acknowledged: 3, pending: [person('u1', 'Niran'), person('u2', 'Pim')] });
    expect(await screen.findByRole('heading', { level: 1, name: 'Acknowledgements' })).toBeInTheDocument();
    expect(await screen.findByText('Post by Anong in Safety')).toBeInTheDocument();
    expect(screen.getByText('The fire exits change on Monday')).toBeInTheDocument();
    expect(figure('Sent')).toHaveTextContent('40');
    expect(figure('Seen')).toHaveTextContent('5');
    expect(figure('Acknowledged')).toHaveTextContent('3');
    expect(figure('Not yet')).toHaveTextContent('37');
    expect(screen.getByText('3 of 40 acknowledged')).toBeInTheDocument();
    const table = screen.getByRole('table', { name: 'By department' });
    expect(within(table).getByRole('rowheader', { name: 'Finance' })).toBeInTheDocument();
    const branches = screen.getByRole('list', { name: 'By manager branch' });
    expect(within(branches).getByRole('button', { name: 'Malee: 1 of 12 acknowledged' })).toBeInTheDocument();
    const niran = await screen.findByRole('article', { name: 'Niran' });
    expect(niran).toHaveTextContent('Manager: Somchai');
    expect(niran).toHaveTextContent('Not seen yet');
  });

  it('follows acknowledgements live: the figures at once, the list within a second', async () => {
    const world: World = { acknowledged: 3, pending: [person('u1', 'Niran'), person('u2', 'Pim')] };
    const { qc, api } = renderReport(world);
    await screen.findByRole('article', { name: 'Pim' });
    world.acknowledged = 4;
    world.pending = [person('u1', 'Niran')];
    const progress: EventMessage = {
      type: 'event',
      seq: 9,
      room: 'topic:t1',
      name: 'announcement.progress',
      payload: { topicId: 't1', postId: 'p1', totals: totals(4) },
      actorId: 'u2',
      createdAt: '2026-11-27T09:30:00.000Z',
    };
    const calls = api.announcements.people.mock.calls.length;
    const reports = api.announcements.report.mock.calls.length;
    // The event's counts are drawn at once (the query cache tells React on its next turn, long before
    // the report's refetch, which waits REPORT_REFRESH_DELAY_MS), before the report is fetched again.
    await act(async () => {
      applyEvent(qc, progress, { userId: 'u-anong' });
      await new Promise((resolve) => setTimeout(resolve, 0));
    });
    expect(figure('Acknowledged')).toHaveTextContent('4');
    expect(screen.getByText('4 of 40 acknowledged')).toBeInTheDocument();
    expect(api.announcements.report.mock.calls.length).toBe(reports);
    await waitFor(() => expect(screen.queryByRole('article', { name: 'Pim' })).toBeNull(), { timeout: 5000 });
    expect(api.announcements.people.mock.calls.length).toBe(calls + 1);
  });

  it('narrows the people to a branch, a department, or shows those who acknowledged', async () => {
    const user = userEvent.setup();
    const { api } = renderReport({ acknowledged: 3, pending: [person('u1', 'Niran')] });
    const malee = await screen.findByRole('button', { name: 'Malee: 1 of 12 acknowledged' });
    await user.click(malee);
    expect(malee).toHaveAttribute('aria-pressed', 'true');
    await waitFor(() =>
      expect(api.announcements.people).toHaveBeenLastCalledWith(
        'p1',
        { status: 'pending', branch: 'm2' },
        undefined,
      ),
    );
    expect(screen.getByText('Branch: Malee')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Show every branch' }));
    await user.click(screen.getByRole('button', { name: 'Acknowledged' }));
    expect(await screen.findByRole('article', { name: 'Kanya' })).toHaveTextContent(/Acknowledged /);
    await user.click(screen.getByRole('combobox', { name: 'Department' }));
    await user.click(await screen.findByRole('option', { name: 'Finance (10)' }));
    await waitFor(() =>
      expect(api.announcements.report).toHaveBeenLastCalledWith('p1', { department: 'Finance' }),
    );
    expect(api.announcements.people).toHaveBeenLastCalledWith(
      'p1',
      { status: 'acknowledged', department: 'Finance' },
      undefined,
    );
  });

  it('reminds again after asking, and says the server’s reason when it is too soon', async () => {
    const user = userEvent.setup();
    vi.spyOn(dialogs, 'confirm').mockResolvedValue(true);
    const remind = vi
      .fn()
      .mockResolvedValueOnce({ reminded: 37, remindedAt: '2026-11-27T09:40:00.000Z' })
      .mockRejectedValueOnce({ code: 4090, message: 'Reminded 2 minutes ago: try again in 13 minutes.' });
    renderReport({ acknowledged: 3, pending: [] }, { remind });
    const button = await screen.findByRole('button', { name: 'Remind again' });
    await user.click(button);
    expect(dialogs.confirm).toHaveBeenCalledWith(
      expect.objectContaining({ text: expect.stringContaining('37 people have not acknowledged') }),
    );
    await waitFor(() => expect(remind).toHaveBeenCalledTimes(1));
    await user.click(button);
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Reminded 2 minutes ago: try again in 13 minutes.',
    );
    expect(screen.getByText('Everyone here has acknowledged.')).toBeInTheDocument();
  });

  it('cannot remind when the server says not now', async () => {
    renderReport(
      { acknowledged: 3, pending: [] },
      {
        report: async () => report(3, { canRemind: false, remindedAt: '2026-11-27T09:40:00.000Z' }),
      },
    );
    expect(await screen.findByRole('button', { name: 'Remind again' })).toBeDisabled();
    expect(screen.getByText(/Reminders can be sent again 15 minutes after the last one/)).toBeInTheDocument();
  });

  it('downloads the server’s CSV as it is, with this browser’s time zone', async () => {
    const user = userEvent.setup();
    const csv = new Blob(['\uFEFFName,Email\n'], { type: 'text/csv' });
    const exportCsv = vi.fn(async () => csv);
    const createObjectURL = vi.fn(() => 'blob:csv');
    Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() });
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    renderReport({ acknowledged: 3, pending: [] }, { exportCsv });
    await user.click(await screen.findByRole('button', { name: 'Download CSV' }));
    await waitFor(() => expect(click).toHaveBeenCalled());
    expect(exportCsv).toHaveBeenCalledWith(
      'p1',
      { department: undefined },
      Intl.DateTimeFormat().resolvedOptions().timeZone,
    );
    expect(createObjectURL).toHaveBeenCalledWith(csv);
    expect((click.mock.contexts[0] as HTMLAnchorElement).download).toBe('acknowledgements-3.csv');
  });
});
