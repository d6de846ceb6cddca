import type { NotificationSettingsView } from '@btalk/contracts';
import Button from '@mui/material/Button';
import { useTranslation } from 'react-i18next';
import { dialogs } from '../../../stores/dialogs.ts';
import { BrowserPushRow } from './BrowserPushRow.tsx';
import { SettingRow } from './SettingRow.tsx';
import { SettingsSection } from './SettingsSection.tsx';
import { useSettingsUpdate } from './useSettingsUpdate.ts';

/** Where notifications reach the person: the app (always), this browser, e-mail, Microsoft Teams. */
export function ChannelsSection({ settings }: { settings: NotificationSettingsView }) {
  const { t } = useTranslation('notificationSettings');
  const update = useSettingsUpdate();
  const { available, channels, teamsConnected } = settings;
  const teamsHelp = !available.teams
    ? t('channels.teamsUnavailable')
    : teamsConnected
      ? t('channels.teamsConnected')
      : t('channels.teamsNotConnected');
  return (
    <SettingsSection heading={t('channels.heading')} intro={t('channels.intro')} error={update.error}>
      <SettingRow label={t('channels.app')} help={t('channels.appHelp')} checked disabled />
      <BrowserPushRow settings={settings} />
      <SettingRow
        label={t('channels.email')}
        help={available.email ? t('channels.emailHelp') : t('channels.emailUnavailable')}
        checked={available.email && channels.email}
        disabled={!available.email}
        onChange={(email) => update.mutate({ channels: { email } })}
      />
      <SettingRow
        label={t('channels.teams')}
        help={teamsHelp}
        checked={available.teams && teamsConnected && channels.teams}
        disabled={!available.teams || !teamsConnected}
        onChange={(teams) => update.mutate({ channels: { teams } })}
        action={
          // SPEC.md section 4: the notification info dialog, with the steps while Teams is not connected.
          <Button
            size="small"
            variant="outlined"
            onClick={() => dialogs.showNotificationInfo(teamsConnected)}
          >
            {teamsConnected ? t('channels.teamsHowItWorks') : t('channels.teamsSetUp')}
          </Button>
        }
      />
    </SettingsSection>
  );
}
