import type { CallEventSummary } from '@btalk/contracts';
import { QueryClient, QueryClientProvider, useQuery } from '@tanstack/react-query';
import {
  act,
  fireEvent,
  render,
  screen,
  waitFor,
  waitForElementToBeRemoved,
  within,
} from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { NetworkError } from '../../api/errors.ts';
import { callTreeKeys } from '../../api/queryKeys.ts';
import { startI18n } from '../../i18n/index.ts';
import { dialogStore, dialogs } from '../../stores/dialogs.ts';
import { GlobalOverlays } from './GlobalOverlays.tsx';

// Whether MUI's Dialog was loaded at all: the mock's factory runs on its first import only.
const dialogCode = vi.hoisted(() => ({ loaded: false }));
vi.mock('@mui/material/Dialog', async (importOriginal) => {
  dialogCode.loaded = true;
  return importOriginal();
});

const closed = { ...dialogStore.getState() };
const TEAMS_LINK = 'https://teams.microsoft.com/l/app/btalk';

beforeAll(async () => {
  const i18n = await startI18n();
  await i18n.changeLanguage('en');
});

beforeEach(() => {
  act(() => dialogStore.setState(closed));
});

afterEach(() => setOnline(true));

function setOnline(online: boolean) {
  Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => online });
  act(() => {
    window.dispatchEvent(new Event(online ? 'online' : 'offline'));
  });
}

/** Watches the pending list as the call-tree event banner does, from the cache only. */
function PendingWatcher() {
  useQuery<CallEventSummary[]>({ queryKey: callTreeKeys.pending(), queryFn: () => [], enabled: false });
  return null;
}

describe('the global overlays', () => {
  // First in the file: nothing has loaded the dialogs' chunk yet.
  it('load the dialogs’ code only when one is asked for; the offline dialog needs none', async () => {
    render(<GlobalOverlays teamsAppLink={null} />);
    setOnline(false);
    expect(screen.getByRole('dialog', { name: "Oops! You're Offline" })).toBeInTheDocument();
    setOnline(true);
    expect(dialogCode.loaded).toBe(false);
    act(() => dialogs.showSnack('Saved.'));
    expect(await screen.findByText('Saved.')).toBeInTheDocument();
    expect(dialogCode.loaded).toBe(true);
  });

  it('show the error dialog for a numeric and for a text detail, closed only with Dismiss', async () => {
    render(<GlobalOverlays teamsAppLink={null} />);
    act(() => dialogs.showError(404));
    // The dialogs' chunk loads on this first use.
    const numeric = await screen.findByRole('dialog', { name: '404 Error Occurred!' });
    expect(
      within(numeric).getByText(
        'Apologies for the inconvenience, but we encountered an error. Please try again?',
      ),
    ).toBeInTheDocument();
    await userEvent.keyboard('{Escape}');
    expect(screen.getByRole('dialog', { name: '404 Error Occurred!' })).toBeInTheDocument();
    await userEvent.click(within(numeric).getByRole('button', { name: 'Dismiss' }));

    act(() => dialogs.showError(new Error('The topic was archived.')));
    const text = await screen.findByRole('dialog', { name: 'Error Occurred!' });
    expect(within(text).getByText('The topic was archived.')).toBeInTheDocument();
    await userEvent.click(within(text).getByRole('button', { name: 'Dismiss' }));

    // A call that got no answer at all (the API client's NetworkError) says so in words.
    act(() => dialogs.showError(new NetworkError('timeout of 120000ms exceeded', { timedOut: true })));
    const network = await screen.findByRole('dialog', { name: 'Error Occurred!' });
    expect(within(network).getByText('timeout of 120000ms exceeded')).toBeInTheDocument();
  });

  it('show the steps and the Open app button when notifications are not enabled', async () => {
    render(<GlobalOverlays teamsAppLink={TEAMS_LINK} />);
    act(() => dialogs.showNotificationInfo(false));
    const dialog = await screen.findByRole('dialog', { name: 'Enable notifications' });
    expect(within(dialog).getByText('Click the Open app button.')).toBeInTheDocument();
    expect(within(dialog).getByText('Click Add.')).toBeInTheDocument();
    const open = within(dialog).getByRole('link', { name: 'Open app' });
    expect(open).toHaveAttribute('href', TEAMS_LINK);
    expect(open).toHaveAttribute('target', '_blank');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Close' }));
    expect(dialogStore.getState().show_info_dialog).toBe(false);
  });

  it('explain the bells when notifications are ready', async () => {
    render(<GlobalOverlays teamsAppLink={TEAMS_LINK} />);
    act(() => dialogs.showNotificationInfo(true));
    const dialog = await screen.findByRole('dialog', { name: 'Notifications are ready' });
    expect(within(dialog).getByText('Bell off: no notifications for this post.')).toBeInTheDocument();
    expect(within(dialog).getByText('Bell ring: notifications from this post.')).toBeInTheDocument();
    expect(within(dialog).queryByRole('link', { name: 'Open app' })).toBeNull();
  });

  it('show the loading, spinner and snackbar texts; the snackbar closes with Close', async () => {
    render(<GlobalOverlays teamsAppLink={null} />);
    act(() => dialogs.setLoading(true));
    expect(await screen.findByRole('dialog', { name: 'Loading...' })).toBeInTheDocument();
    expect(screen.getByRole('progressbar', { name: 'Loading...' })).toBeInTheDocument();
    act(() => dialogs.setLoading(false));
    await waitForElementToBeRemoved(() => screen.queryByRole('dialog', { name: 'Loading...' }));
    act(() => dialogs.setSpinner(true));
    expect(screen.getByRole('dialog', { name: 'Please wait a moment...' })).toBeInTheDocument();
    act(() => dialogs.setSpinner(false));
    await waitForElementToBeRemoved(() => screen.queryByRole('dialog', { name: 'Please wait a moment...' }));
    act(() => dialogs.showSnack('Your answer was saved.'));
    const snack = screen.getByText('Your answer was saved.');
    await userEvent.click(screen.getByRole('button', { name: 'Close' }));
    expect(dialogStore.getState().show_info_snack_dialog).toBe(false);
    await waitForElementToBeRemoved(snack);
  });

  it('show the offline dialog while the browser is offline', async () => {
    render(<GlobalOverlays teamsAppLink={null} />);
    expect(screen.queryByRole('dialog', { name: "Oops! You're Offline" })).toBeNull();
    Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => false });
    act(() => {
      window.dispatchEvent(new Event('offline'));
    });
    expect(screen.getByRole('dialog', { name: "Oops! You're Offline" })).toBeInTheDocument();
    // Like every dialog it can be dismissed (what works offline, a queued call-tree answer, stays reachable).
    fireEvent.click(screen.getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('dialog', { name: "Oops! You're Offline" })).toBeNull();
    Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => true });
    act(() => {
      window.dispatchEvent(new Event('online'));
    });
    Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => false });
    act(() => {
      window.dispatchEvent(new Event('offline'));
    });
    expect(screen.getByRole('dialog', { name: "Oops! You're Offline" })).toBeInTheDocument();
    Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => true });
    act(() => {
      window.dispatchEvent(new Event('online'));
    });
    expect(screen.queryByRole('dialog', { name: "Oops! You're Offline" })).toBeNull();
  });

  it('leave the offline message to the event banner while an event waits for an answer', async () => {
    const queryClient = new QueryClient();
    const event = { id: 'e1' } as CallEventSummary;
    queryClient.setQueryData<CallEventSummary[]>(callTreeKeys.pending(), [event]);
    const view = (banner: boolean) => (
      <QueryClientProvider client={queryClient}>
        {banner && <PendingWatcher />}
        <GlobalOverlays teamsAppLink={null} />
      </QueryClientProvider>
    );
    const { rerender } = render(view(true));
    setOnline(false);
    await act(() => new Promise((resolve) => setTimeout(resolve, 10)));
    expect(screen.queryByRole('dialog', { name: "Oops! You're Offline" })).toBeNull();
    // Answered: the list is empty, the dialog is back.
    act(() => queryClient.setQueryData<CallEventSummary[]>(callTreeKeys.pending(), []));
    await screen.findByRole('dialog', { name: "Oops! You're Offline" });
    act(() => queryClient.setQueryData<CallEventSummary[]>(callTreeKeys.pending(), [event]));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: "Oops! You're Offline" })).toBeNull());
    // A screen without the banner (none watches the list): the dialog, as always.
    rerender(view(false));
    await waitFor(() =>
      expect(screen.getByRole('dialog', { name: "Oops! You're Offline" })).toBeInTheDocument(),
    );
  });
});
