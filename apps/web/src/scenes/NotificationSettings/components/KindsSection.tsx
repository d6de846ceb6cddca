import type { NotificationKindSetting, NotificationSettingsView } from '@btalk/contracts';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { SettingRow } from './SettingRow.tsx';
import { SettingsSection } from './SettingsSection.tsx';
import { useSettingsUpdate } from './useSettingsUpdate.ts';

const KINDS: NotificationKindSetting[] = ['mention', 'comment', 'post', 'topicAdded'];

/** Which kinds leave the app (browser, e-mail, Teams); the bell keeps them all, call trees always go. */
export function KindsSection({ settings }: { settings: NotificationSettingsView }) {
  const { t } = useTranslation('notificationSettings');
  const update = useSettingsUpdate();
  return (
    <SettingsSection heading={t('kinds.heading')} intro={t('kinds.intro')} error={update.error}>
      {KINDS.map((kind) => (
        <SettingRow
          key={kind}
          label={t(`kinds.${kind}`)}
          help={t(`kinds.${kind}Help`)}
          checked={settings.kinds[kind]}
          onChange={(on) => update.mutate({ kinds: { [kind]: on } })}
        />
      ))}
      <Typography variant="body2" sx={{ mt: 1, fontWeight: 500 }}>
        {t('kinds.callTree')}
      </Typography>
    </SettingsSection>
  );
}
