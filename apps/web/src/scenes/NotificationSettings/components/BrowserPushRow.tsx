import type { NotificationSettingsView, PushSubscriptionRequest } from '@btalk/contracts';
import Typography from '@mui/material/Typography';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isErrorEnvelope } from '../../../api/errors.ts';
import { notificationKeys } from '../../../api/queryKeys.ts';
import { useServices } from '../../../services.tsx';
import {
  browserSupportsPush,
  currentSubscription,
  notificationPermission,
  PushPermissionError,
  subscribeBrowser,
  unsubscribeBrowser,
} from './browserPush.ts';
import { SettingRow } from './SettingRow.tsx';

/** Why the switch cannot be used, or what went wrong last, as a sentence. */
type Problem = 'unavailable' | 'unsupported' | 'denied' | 'dismissed' | { failed: string } | null;

function reasonOf(error: unknown): string {
  if (isErrorEnvelope(error)) return error.details?.map((d) => d.reason).join('; ') || error.message;
  return error instanceof Error ? error.message : String(error);
}

/**
 * "Browser notifications" for this browser: on = permission, a push subscription with the server's
 * key, registered with the server, and the push channel on. Off = this browser forgets it (and the
 * channel goes off when no other browser of the person has it).
 */
export function BrowserPushRow({ settings }: { settings: NotificationSettingsView }) {
  const { t } = useTranslation('notificationSettings');
  const { api } = useServices();
  const queryClient = useQueryClient();
  const supported = browserSupportsPush();
  const vapidKey = settings.available.push ? settings.vapidPublicKey : null;
  // Whether this browser holds a subscription: browser state, read once and after each change.
  const [subscribed, setSubscribed] = useState<boolean | null>(null);
  const [problem, setProblem] = useState<Problem>(() =>
    notificationPermission() === 'denied' ? 'denied' : null,
  );
  const pushOn = settings.channels.push;
  useEffect(() => {
    let current = true;
    currentSubscription().then(
      (subscription) => {
        if (!current) return;
        setSubscribed(subscription !== null);
        // The browser may have renewed it (push-sw.js, `pushsubscriptionchange`): tell the server again.
        if (subscription && pushOn) {
          api.notificationSettings
            .subscribePush(subscription.toJSON() as PushSubscriptionRequest)
            .catch(() => undefined);
        }
      },
      () => current && setSubscribed(false),
    );
    return () => {
      current = false;
    };
  }, [api, pushOn]);

  const store = (view: NotificationSettingsView) =>
    queryClient.setQueryData(notificationKeys.settings(), view);
  const toggle = useMutation({
    meta: { silent: true },
    mutationFn: async (on: boolean) => {
      if (on) {
        if (!vapidKey) throw new Error('no VAPID key');
        const subscription = await subscribeBrowser(vapidKey);
        await api.notificationSettings.subscribePush(subscription);
        return api.notificationSettings.update({ channels: { push: true } });
      }
      const endpoint = await unsubscribeBrowser();
      const left = endpoint ? await api.notificationSettings.unsubscribePush(endpoint) : null;
      const others = left ? left.pushSubscriptions : settings.pushSubscriptions;
      // Other browsers of the person keep theirs: the channel stays on for them.
      return others > 0
        ? api.notificationSettings.get()
        : api.notificationSettings.update({ channels: { push: false } });
    },
    onMutate: () => setProblem(null),
    onSuccess: (view, on) => {
      store(view);
      setSubscribed(on);
    },
    onError: (error) => {
      if (error instanceof PushPermissionError)
        setProblem(error.permission === 'denied' ? 'denied' : 'dismissed');
      else setProblem({ failed: reasonOf(error) });
      void currentSubscription().then((s) => setSubscribed(s !== null));
    },
  });

  const blocked: Problem = !vapidKey ? 'unavailable' : !supported ? 'unsupported' : null;
  const shown = blocked ?? problem;
  const on = settings.channels.push && subscribed === true;
  const others = Math.max(0, settings.pushSubscriptions - (subscribed ? 1 : 0));
  return (
    <SettingRow
      label={t('channels.push')}
      help={t('channels.pushHelp')}
      checked={toggle.isPending ? toggle.variables : on}
      disabled={blocked !== null || subscribed === null || toggle.isPending}
      onChange={(value) => toggle.mutate(value)}
    >
      {toggle.isPending && (
        <Typography variant="body2" role="status" sx={{ mt: 0.5 }}>
          {t('channels.pushWorking')}
        </Typography>
      )}
      {settings.channels.push && others > 0 && !blocked && (
        <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }}>
          {t('channels.pushOtherBrowsers', { count: others })}
        </Typography>
      )}
      {shown && (
        <Typography
          variant="body2"
          role={blocked ? undefined : 'alert'}
          color={blocked ? 'text.secondary' : 'warning.main'}
          sx={{ mt: 0.5 }}
        >
          {shown === 'unavailable'
            ? t('channels.pushUnavailable')
            : shown === 'unsupported'
              ? t('channels.pushUnsupported')
              : shown === 'denied'
                ? t('channels.pushDenied')
                : shown === 'dismissed'
                  ? t('channels.pushDismissed')
                  : t('channels.pushFailed', { reason: shown.failed })}
        </Typography>
      )}
    </SettingRow>
  );
}
