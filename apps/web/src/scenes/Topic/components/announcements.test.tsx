import type { Announcement, PendingAnnouncementList, Post, Topic } from '@btalk/contracts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { type ReactNode, Suspense } from 'react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { announcementKeys } from '../../../api/announcementKeys.ts';
import type { PostPages } from '../../../api/postCache.ts';
import { queryKeys } from '../../../api/queryKeys.ts';
import { startI18n } from '../../../i18n/index.ts';
import { type Services, ServicesProvider } from '../../../services.tsx';
import { dialogStore, dialogs } from '../../../stores/dialogs.ts';
import { announcementOf, anong, asPost, boon, postBase, totalsOf } from '../../../test/posts.ts';
import AnnouncementDialog from './AnnouncementDialog.tsx';
import { ImportantPosts, importantItems } from './ImportantPosts.tsx';
import { PostAnnouncement } from './PostAnnouncement.tsx';
import { PostMenu } from './PostMenu.tsx';

const announcement = (over: Partial<Announcement> = {}) =>
  announcementOf({ totals: totalsOf(12, 40, 20), ...over });

/** Post 3 of topic t1 by Anong; its reader's bell is off and they may not pin. */
const makePost = (over: Partial<Post> = {}): Post =>
  asPost(
    postBase(3, {
      id: 'p1',
      clientId: 'c1',
      body: 'The **fire exits** change on Monday',
      createdAt: '2026-11-27T08:00:00.000Z',
    }),
    { bell: 'off', abilities: { edit: true, delete: true, pin: false, comment: true, react: true }, ...over },
  );

const topic = (abilities: Partial<Topic['abilities']> = {}) =>
  ({
    id: 't1',
    title: 'Safety',
    abilities: { announce: true, announcementReports: false, ...abilities },
  }) as Topic;

function renderWith(ui: ReactNode, api: Record<string, unknown>, qc = new QueryClient()) {
  const services = { api: { topics: { get: async () => topic() }, ...api } } as unknown as Services;
  render(
    <QueryClientProvider client={qc}>
      <ServicesProvider services={services}>
        <MemoryRouter>
          <Suspense fallback={null}>{ui}</Suspense>
        </MemoryRouter>
      </ServicesProvider>
    </QueryClientProvider>,
  );
  return qc;
}

/** A cache holding the topic and its one page of posts. */
function cacheWith(post: Post, abilities: Partial<Topic['abilities']> = {}) {
  const qc = new QueryClient();
  qc.setQueryData(queryKeys.topics.detail('t1'), topic(abilities));
  qc.setQueryData<PostPages>(queryKeys.posts.list('t1'), {
    pages: [{ items: [post], pinned: [], nextCursor: null, newerCursor: null }],
    pageParams: [undefined],
  });
  return qc;
}

const cachedPost = (qc: QueryClient) =>
  qc.getQueryData<PostPages>(queryKeys.posts.list('t1'))!.pages[0]!.items[0]!;

beforeAll(async () => {
  await startI18n();
});
afterEach(() => {
  vi.restoreAllMocks();
  dialogStore.setState({ show_info_snack_dialog: false, info_snack_dialog_msg: '' });
});

describe('an important post', () => {
  it('asks a reader to acknowledge with one tap, then says when they did', async () => {
    const post = makePost({
      announcement: announcement({ urgent: true, dueAt: '2099-01-01T10:00:00.000Z' }),
    });
    const acknowledge = vi.fn(async () => ({
      acknowledgedAt: '2026-11-27T09:30:00.000Z',
      totals: { audience: 40, seen: 21, acknowledged: 13, notYet: 27 },
    }));
    const qc = cacheWith(post);
    renderWith(<PostAnnouncement post={post} myId={boon.id} />, { announcements: { acknowledge } }, qc);
    const part = await screen.findByRole('region', { name: 'Important: acknowledgement requested' });
    expect(within(part).getByText('Urgent')).toBeInTheDocument();
    expect(within(part).getByText(/^Due /)).toBeInTheDocument();
    expect(within(part).getByText('12 of 40 acknowledged')).toBeInTheDocument();
    // Readers see only the count.
    expect(within(part).queryByRole('link', { name: 'Who has read it' })).toBeNull();
    await userEvent.setup().click(within(part).getByRole('button', { name: 'Acknowledge' }));
    expect(acknowledge).toHaveBeenCalledWith('p1');
    await waitFor(() => expect(cachedPost(qc).acknowledgedAt).toBe('2026-11-27T09:30:00.000Z'));
    expect(cachedPost(qc).announcement!.totals.acknowledged).toBe(13);
  });

  it('shows "Acknowledged" with the time once acknowledged, and no button', async () => {
    const post = makePost({ announcement: announcement(), acknowledgedAt: '2026-11-27T09:30:00.000Z' });
    renderWith(<PostAnnouncement post={post} myId={boon.id} />, {}, cacheWith(post));
    const part = await screen.findByRole('region', { name: 'Important: acknowledgement requested' });
    expect(within(part).getByText('Acknowledged')).toBeInTheDocument();
    expect(
      within(part).getByText(
        (_, el) => el?.tagName === 'TIME' && el.getAttribute('dateTime') === post.acknowledgedAt,
      ),
    ).toBeInTheDocument();
    expect(within(part).queryByRole('button', { name: 'Acknowledge' })).toBeNull();
  });

  it('gives the author the count and the way to who has read it, not a button of their own', async () => {
    const post = makePost({ announcement: announcement() });
    renderWith(<PostAnnouncement post={post} myId={anong.id} />, {}, cacheWith(post));
    const part = await screen.findByRole('region', { name: 'Important: acknowledgement requested' });
    expect(within(part).queryByRole('button', { name: 'Acknowledge' })).toBeNull();
    expect(within(part).getByRole('link', { name: 'Who has read it' })).toHaveAttribute(
      'href',
      '/topics/t1/posts/p1/acknowledgements',
    );
  });

  it('shows the report link to the topic’s owners and admins', async () => {
    const post = makePost({ announcement: announcement() });
    renderWith(
      <PostAnnouncement post={post} myId={boon.id} />,
      {},
      cacheWith(post, { announcementReports: true }),
    );
    expect(await screen.findByRole('link', { name: 'Who has read it' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Acknowledge' })).toBeInTheDocument();
  });
});

describe('the acknowledgement request', () => {
  it('is offered in the menu of one’s own post where one may announce', async () => {
    const user = userEvent.setup();
    const post = makePost();
    renderWith(
      <PostMenu post={post} myId={anong.id} onEdit={vi.fn()} onDelete={vi.fn()} onPin={vi.fn()} />,
      {},
      cacheWith(post),
    );
    await user.click(await screen.findByRole('button', { name: 'Post menu' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Request acknowledgement' }));
    expect(await screen.findByRole('dialog', { name: 'Request acknowledgement' })).toBeInTheDocument();
  });

  it('is not offered on someone else’s post, nor where one may not announce', async () => {
    const user = userEvent.setup();
    const post = makePost();
    renderWith(
      <PostMenu post={post} myId={boon.id} onEdit={vi.fn()} onDelete={vi.fn()} onPin={vi.fn()} />,
      {},
      cacheWith(post),
    );
    await user.click(await screen.findByRole('button', { name: 'Post menu' }));
    expect(await screen.findByRole('menuitem', { name: 'Copy link' })).toBeInTheDocument();
    expect(screen.queryByRole('menuitem', { name: 'Request acknowledgement' })).toBeNull();
    await user.keyboard('{Escape}');
    const qc = cacheWith(post, { announce: false });
    renderWith(
      <PostMenu post={post} myId={anong.id} onEdit={vi.fn()} onDelete={vi.fn()} onPin={vi.fn()} />,
      {},
      qc,
    );
    await user.click(screen.getAllByRole('button', { name: 'Post menu' })[1]!);
    expect(await screen.findByRole('menuitem', { name: 'Copy link' })).toBeInTheDocument();
    expect(screen.queryByRole('menuitem', { name: 'Request acknowledgement' })).toBeNull();
  });

  it('sends urgency, due time and reminder, and puts the answer in the cache', async () => {
    const user = userEvent.setup();
    const post = makePost();
    const qc = cacheWith(post);
    const marked = makePost({ announcement: announcement({ urgent: true, remindAfterMinutes: 240 }) });
    const mark = vi.fn(async () => marked);
    const onClose = vi.fn();
    renderWith(<AnnouncementDialog post={post} onClose={onClose} />, { announcements: { mark } }, qc);
    const dialog = await screen.findByRole('dialog', { name: 'Request acknowledgement' });
    const urgent = within(dialog).getByRole('switch', { name: 'Urgent' });
    expect(urgent).toHaveAccessibleDescription(/quiet hours/);
    await user.click(urgent);
    fireEvent.change(within(dialog).getByLabelText('Due (optional)'), {
      target: { value: '2099-03-01T17:00' },
    });
    await user.click(
      within(dialog).getByRole('combobox', { name: 'Remind those who have not acknowledged' }),
    );
    const options = await screen.findAllByRole('option');
    expect(options.map((o) => o.textContent)).toEqual([
      'No reminder',
      'After 1 hour',
      'After 4 hours',
      'After 1 day',
      'After 3 days',
    ]);
    await user.click(screen.getByRole('option', { name: 'After 4 hours' }));
    await user.click(within(dialog).getByRole('button', { name: 'Request' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(mark).toHaveBeenCalledWith('p1', {
      urgent: true,
      dueAt: new Date('2099-03-01T17:00').toISOString(),
      remindAfterMinutes: 240,
    });
    expect(cachedPost(qc).announcement).toEqual(marked.announcement);
    expect(dialogStore.getState().info_snack_dialog_msg).toBe('Acknowledgement requested.');
  });

  it('refuses a due time in the past, and says the server’s reason in the dialog', async () => {
    const user = userEvent.setup();
    const mark = vi.fn(async () => {
      throw { code: 4000, message: 'body.dueAt: must be in the future' };
    });
    renderWith(<AnnouncementDialog post={makePost()} onClose={vi.fn()} />, { announcements: { mark } });
    const dialog = await screen.findByRole('dialog', { name: 'Request acknowledgement' });
    const due = within(dialog).getByLabelText('Due (optional)');
    fireEvent.change(due, { target: { value: '2001-03-01T17:00' } });
    expect(within(dialog).getByText('Choose a time in the future, or leave it empty.')).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Request' })).toBeDisabled();
    fireEvent.change(due, { target: { value: '' } });
    await user.click(within(dialog).getByRole('button', { name: 'Request' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('body.dueAt: must be in the future');
    expect(mark).toHaveBeenCalledWith('p1', { urgent: false, dueAt: null, remindAfterMinutes: null });
  });

  it('changes or stops an existing request from the menu', async () => {
    const user = userEvent.setup();
    const post = makePost({ announcement: announcement({ urgent: true, remindAfterMinutes: 1440 }) });
    const qc = cacheWith(post);
    const unmark = vi.fn(async () => makePost());
    vi.spyOn(dialogs, 'confirm').mockResolvedValue(true);
    renderWith(
      <PostMenu post={post} myId={anong.id} onEdit={vi.fn()} onDelete={vi.fn()} onPin={vi.fn()} />,
      { announcements: { unmark } },
      qc,
    );
    await user.click(await screen.findByRole('button', { name: 'Post menu' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Change acknowledgement request' }));
    const dialog = await screen.findByRole('dialog', { name: 'Change acknowledgement request' });
    expect(within(dialog).getByRole('switch', { name: 'Urgent' })).toBeChecked();
    expect(
      within(dialog).getByRole('combobox', { name: 'Remind those who have not acknowledged' }),
    ).toHaveTextContent('After 1 day');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await user.click(screen.getByRole('button', { name: 'Post menu' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Stop asking for acknowledgement' }));
    await waitFor(() => expect(unmark).toHaveBeenCalledWith('p1'));
    expect(dialogs.confirm).toHaveBeenCalledWith(
      expect.objectContaining({ title: 'Stop asking for acknowledgement?' }),
    );
    await waitFor(() => expect(cachedPost(qc).announcement).toBeNull());
  });
});

describe('the topic’s important posts', () => {
  const pending = (over: Partial<PendingAnnouncementList['items'][number]> = {}) => ({
    postId: 'p9',
    topicId: 't1',
    topicTitle: 'Safety',
    number: 9,
    authorName: 'Anong',
    excerpt: 'Evacuation drill on Friday',
    urgent: false,
    dueAt: null,
    markedAt: '2026-11-27T09:00:00.000Z',
    ...over,
  });

  it('joins the pending list with loaded posts, urgent first, leaving out acknowledged and other topics', () => {
    const loaded = [
      makePost({ id: 'p3', number: 3, announcement: announcement({ urgent: true }) }),
      makePost({ id: 'p4', number: 4, announcement: announcement(), acknowledgedAt: 'x' }),
      makePost({ id: 'p5', number: 5, announcement: announcement(), author: boon }),
      makePost({ id: 'p6', number: 6 }),
    ];
    const items = importantItems(
      't1',
      [pending(), pending({ postId: 'p4', number: 4 }), pending({ postId: 'o1', topicId: 't2' })],
      loaded,
      boon.id,
    );
    expect(items.map((i) => i.postId)).toEqual(['p3', 'p9']);
    expect(items[0]).toMatchObject({ excerpt: 'The fire exits change on Monday', authorName: 'Anong' });
  });

  it('keeps them at the top until acknowledged, each opening its post', async () => {
    const user = userEvent.setup();
    const qc = new QueryClient();
    const acknowledge = vi.fn(async () => ({
      acknowledgedAt: '2026-11-27T09:30:00.000Z',
      totals: { audience: 40, seen: 21, acknowledged: 13, notYet: 27 },
    }));
    const onOpen = vi.fn();
    renderWith(
      <ImportantPosts topicId="t1" posts={[]} myId={boon.id} onOpen={onOpen} />,
      { announcements: { pending: async () => ({ items: [pending()], total: 1 }), acknowledge } },
      qc,
    );
    const strip = await screen.findByRole('region', { name: 'Important posts to acknowledge' });
    await user.click(within(strip).getByRole('button', { name: /Evacuation drill on Friday/ }));
    expect(onOpen).toHaveBeenCalledWith(9);
    const button = within(strip).getByRole('button', { name: 'Acknowledge' });
    expect(button).toHaveAccessibleDescription(/Evacuation drill on Friday/);
    await user.click(button);
    expect(acknowledge).toHaveBeenCalledWith('p9');
    await waitFor(() =>
      expect(screen.queryByRole('region', { name: 'Important posts to acknowledge' })).toBeNull(),
    );
    expect(qc.getQueryData<PendingAnnouncementList>(announcementKeys.pending())).toEqual({
      items: [],
      total: 0,
    });
  });
});
