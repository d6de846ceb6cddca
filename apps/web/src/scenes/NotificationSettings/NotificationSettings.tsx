import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { notificationKeys } from '../../api/queryKeys.ts';
import { ScenePage } from '../../components/ScenePage.tsx';
import { SignInPrompt, StateMessage, useSignedIn } from '../../components/SignInPrompt.tsx';
import { useServices } from '../../services.tsx';
import { ChannelsSection } from './components/ChannelsSection.tsx';
import { KindsSection } from './components/KindsSection.tsx';
import { QuietHoursSection } from './components/QuietHoursSection.tsx';

/**
 * `/settings/notifications`: where notifications reach the person (the app, this browser, e-mail,
 * Teams), which kinds go out, and quiet hours. Switches save at once; quiet hours with their button.
 */
export default function NotificationSettings() {
  const { t } = useTranslation('notificationSettings');
  const { api } = useServices();
  const signedIn = useSignedIn();
  const settings = useQuery({
    queryKey: notificationKeys.settings(),
    queryFn: () => api.notificationSettings.get(),
    enabled: signedIn,
    meta: { silent: true },
  });
  if (!signedIn) {
    return (
      <ScenePage title={t('title')}>
        <SignInPrompt text={t('signInText')} />
      </ScenePage>
    );
  }
  return (
    <ScenePage title={t('title')}>
      {settings.isPending && <StateMessage text={t('loading')} />}
      {settings.isError && <StateMessage text={t('failed')} onRetry={() => settings.refetch()} />}
      {settings.isSuccess && (
        <>
          <ChannelsSection settings={settings.data} />
          <KindsSection settings={settings.data} />
          <QuietHoursSection settings={settings.data} />
        </>
      )}
    </ScenePage>
  );
}
