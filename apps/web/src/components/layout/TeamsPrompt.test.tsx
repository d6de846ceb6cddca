import type { NotificationSettingsView, UpdateNotificationSettingsRequest } from '@btalk/contracts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, render, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { type Services, ServicesProvider } from '../../services.tsx';
import { createStore } from '../../stores/createStore.ts';
import { dialogStore, dialogs } from '../../stores/dialogs.ts';
import { teamsStore } from '../../stores/teams.ts';
import { shouldOfferTeams, TeamsPrompt } from './TeamsPrompt.tsx';

const view = (change: Partial<NotificationSettingsView> = {}): NotificationSettingsView => ({
  channels: { push: false, email: true, teams: true },
  kinds: { mention: true, comment: true, post: true, topicAdded: true },
  quietHours: { enabled: false, start: '22:00', end: '07:00', timeZone: 'Asia/Bangkok' },
  teamsPromptDismissed: false,
  available: { push: true, email: true, teams: true },
  teamsConnected: false,
  vapidPublicKey: null,
  pushSubscriptions: 0,
  ...change,
});

function renderPrompt(settings: NotificationSettingsView) {
  const updates: UpdateNotificationSettingsRequest[] = [];
  const services = {
    session: createStore({ btalk_token: 'sealed' }),
    api: {
      notificationSettings: {
        get: async () => settings,
        update: async (change: UpdateNotificationSettingsRequest) => {
          updates.push(change);
          return { ...settings, ...change };
        },
      },
    },
  } as unknown as Services;
  render(
    <QueryClientProvider client={new QueryClient()}>
      <ServicesProvider services={services}>
        <TeamsPrompt />
      </ServicesProvider>
    </QueryClientProvider>,
  );
  return updates;
}

afterEach(() => {
  dialogs.closeInfo();
  teamsStore.setState({ inTeams: false, theme: null });
});

describe('the Teams dialog after sign-in', () => {
  it('is offered only when Teams is available, not connected, not dismissed, and not in the tab', () => {
    expect(shouldOfferTeams(view(), false)).toBe(true);
    expect(shouldOfferTeams(undefined, false)).toBe(false);
    expect(shouldOfferTeams(view({ available: { push: true, email: true, teams: false } }), false)).toBe(
      false,
    );
    expect(shouldOfferTeams(view({ teamsConnected: true }), false)).toBe(false);
    expect(shouldOfferTeams(view({ teamsPromptDismissed: true }), false)).toBe(false);
    expect(shouldOfferTeams(view(), true)).toBe(false);
  });

  it('shows the two steps once, and a click that closes it dismisses it for good', async () => {
    const updates = renderPrompt(view());
    await waitFor(() => expect(dialogStore.getState().show_info_dialog).toBe(true));
    expect(dialogStore.getState().info_dialog_detail).toMatchObject({
      template: 'notification',
      user_enable: false,
    });
    // Open, nothing is stored yet.
    expect(updates).toEqual([]);
    act(() => dialogs.closeInfo());
    await waitFor(() => expect(updates).toEqual([{ teamsPromptDismissed: true }]));
    // Not shown again in this page either.
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(dialogStore.getState().show_info_dialog).toBe(false);
    expect(updates).toHaveLength(1);
  });

  it('does not show to people who dismissed it or connected Teams', async () => {
    for (const settings of [view({ teamsPromptDismissed: true }), view({ teamsConnected: true })]) {
      const updates = renderPrompt(settings);
      await new Promise((resolve) => setTimeout(resolve, 30));
      expect(dialogStore.getState().show_info_dialog).toBe(false);
      expect(updates).toEqual([]);
    }
  });
});
