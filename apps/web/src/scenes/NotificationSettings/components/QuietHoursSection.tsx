import type { NotificationSettingsView, QuietHours } from '@btalk/contracts';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { type FormEvent, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isErrorEnvelope } from '../../../api/errors.ts';
import { dialogs } from '../../../stores/dialogs.ts';
import { SettingRow } from './SettingRow.tsx';
import { SettingsSection } from './SettingsSection.tsx';
import { useSettingsUpdate } from './useSettingsUpdate.ts';

type Field = 'start' | 'end' | 'timeZone';
type FieldErrors = Partial<Record<Field | 'form', string>>;

/** The browser's own time zone (what a person who never chose one is in). */
export function browserTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

/** The time zones to choose from: the runtime's list, with the chosen and the browser's always in it. */
export function timeZoneOptions(...always: string[]): string[] {
  const known = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  return [...new Set([...known, ...always])].sort();
}

/** The server's refusals by field (`body.quietHours.start` -> start); anything else for the form. */
export function fieldErrorsOf(error: unknown, fallback: string): FieldErrors {
  if (!isErrorEnvelope(error)) return { form: fallback };
  const found: FieldErrors = {};
  for (const detail of error.details ?? []) {
    const field = /quietHours\.(start|end|timeZone)$/.exec(detail.field)?.[1] as Field | undefined;
    if (field) found[field] = detail.reason;
    else found.form = detail.reason;
  }
  return Object.keys(found).length > 0 ? found : { form: error.message };
}

/** Quiet hours: on or off, from and to (24-hour), in a time zone; saved together. */
export function QuietHoursSection({ settings }: { settings: NotificationSettingsView }) {
  const { t } = useTranslation('notificationSettings');
  const update = useSettingsUpdate();
  // Someone who has not used quiet hours yet starts from the browser's time zone.
  const [form, setForm] = useState<QuietHours>(() =>
    settings.quietHours.enabled
      ? settings.quietHours
      : { ...settings.quietHours, timeZone: browserTimeZone() },
  );
  const [errors, setErrors] = useState<FieldErrors>({});
  const zones = useMemo(() => timeZoneOptions(form.timeZone, browserTimeZone()), [form.timeZone]);
  const change = (part: Partial<QuietHours>) => {
    setForm((f) => ({ ...f, ...part }));
    setErrors({});
  };
  const save = (event: FormEvent) => {
    event.preventDefault();
    const missing: FieldErrors = {};
    if (!form.start) missing.start = t('quiet.timeMissing');
    if (!form.end) missing.end = t('quiet.timeMissing');
    setErrors(missing);
    if (Object.keys(missing).length > 0) return;
    update.mutate(
      { quietHours: { ...form, start: form.start.slice(0, 5), end: form.end.slice(0, 5) } },
      {
        onSuccess: () => dialogs.showSnack(t('quiet.saved')),
        onError: (error) => setErrors(fieldErrorsOf(error, t('saveFailed'))),
      },
    );
  };
  const off = !form.enabled;
  return (
    <SettingsSection heading={t('quiet.heading')} intro={t('quiet.intro')}>
      <Box component="form" noValidate onSubmit={save}>
        <SettingRow
          label={t('quiet.enabled')}
          help={
            form.start && form.end
              ? t(form.start > form.end ? 'quiet.overnight' : 'quiet.sameDay', {
                  from: form.start,
                  to: form.end,
                })
              : undefined
          }
          checked={form.enabled}
          onChange={(enabled) => change({ enabled })}
        />
        <Box
          sx={{
            display: 'grid',
            gap: 2,
            gridTemplateColumns: { xs: '1fr 1fr', sm: '140px 140px minmax(0, 1fr)' },
            mt: 1,
          }}
        >
          <TextField
            type="time"
            label={t('quiet.from')}
            value={form.start}
            disabled={off}
            onChange={(e) => change({ start: e.target.value })}
            error={Boolean(errors.start)}
            helperText={errors.start}
            slotProps={{ inputLabel: { shrink: true }, htmlInput: { step: 60 } }}
          />
          <TextField
            type="time"
            label={t('quiet.to')}
            value={form.end}
            disabled={off}
            onChange={(e) => change({ end: e.target.value })}
            error={Boolean(errors.end)}
            helperText={errors.end}
            slotProps={{ inputLabel: { shrink: true }, htmlInput: { step: 60 } }}
          />
          <TextField
            select
            label={t('quiet.timeZone')}
            value={form.timeZone}
            disabled={off}
            onChange={(e) => change({ timeZone: e.target.value })}
            error={Boolean(errors.timeZone)}
            helperText={errors.timeZone}
            sx={{ gridColumn: { xs: '1 / -1', sm: 'auto' } }}
            slotProps={{ select: { native: true }, inputLabel: { shrink: true } }}
          >
            {zones.map((zone) => (
              <option key={zone} value={zone}>
                {zone.replace(/_/g, ' ')}
              </option>
            ))}
          </TextField>
        </Box>
        {errors.form && (
          <Typography role="alert" variant="body2" color="error" sx={{ mt: 1 }}>
            {errors.form}
          </Typography>
        )}
        <Button type="submit" variant="contained" sx={{ mt: 2 }} loading={update.isPending}>
          {t('quiet.save')}
        </Button>
      </Box>
    </SettingsSection>
  );
}
