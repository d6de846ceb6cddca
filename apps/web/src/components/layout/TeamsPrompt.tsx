import type { NotificationSettingsView } from '@btalk/contracts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { notificationKeys } from '../../api/queryKeys.ts';
import { useServices } from '../../services.tsx';
import { useStore } from '../../stores/createStore.ts';
import { dialogs, useDialogs } from '../../stores/dialogs.ts';
import { useInTeams } from '../../stores/teams.ts';

/**
 * Whether to offer connecting Microsoft Teams: the server has a Teams bot, the person has not added
 * BTalk there, never closed this offer, and is not already in the Teams tab.
 */
export function shouldOfferTeams(view: NotificationSettingsView | undefined, inTeams: boolean): boolean {
  return (
    view !== undefined &&
    !inTeams &&
    view.available.teams &&
    !view.teamsConnected &&
    !view.teamsPromptDismissed
  );
}

/**
 * Shows the notification dialog (SPEC.md section 4, `user_enable` false: the two steps and "open
 * app") once after sign-in to people who have not connected Teams; closing it dismisses it for good
 * (`teamsPromptDismissed`, kept on the server for every device).
 */
export function TeamsPrompt() {
  const { session, api } = useServices();
  const queryClient = useQueryClient();
  const inTeams = useInTeams();
  const signedIn = useStore(session, (s) => s.btalk_token !== null);
  const settings = useQuery({
    queryKey: notificationKeys.settings(),
    queryFn: () => api.notificationSettings.get(),
    enabled: signedIn && !inTeams,
    meta: { silent: true },
  });
  const open = useDialogs((s) => s.show_info_dialog);
  // idle -> shown (asked to open) -> open (on screen) -> done (closed and dismissed).
  const phase = useRef<'idle' | 'shown' | 'open' | 'done'>('idle');
  const offer = shouldOfferTeams(settings.data, inTeams);

  useEffect(() => {
    if (offer && phase.current === 'idle') {
      phase.current = 'shown';
      dialogs.showNotificationInfo(false);
    }
  }, [offer]);

  useEffect(() => {
    if (phase.current === 'shown' && open) phase.current = 'open';
    else if (phase.current === 'open' && !open) {
      phase.current = 'done';
      void api.notificationSettings
        .update({ teamsPromptDismissed: true })
        .then((view) => queryClient.setQueryData(notificationKeys.settings(), view))
        .catch((error: unknown) => console.error('BTalk: could not keep the Teams dialog closed', error));
    }
  }, [open, api, queryClient]);

  return null;
}
