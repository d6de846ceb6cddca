import type { CallEventSummary } from '@btalk/contracts';
import WifiOff from '@mui/icons-material/WifiOff';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { useQueuedAnswers } from '../../offline/index.ts';
import { useOnline } from '../overlays/NetworkErrorDialog.tsx';
import { CallAnswerForm } from './CallAnswerForm.tsx';
import { optionLabel } from './labels.ts';
import { useSubmitAnswer } from './useSubmitAnswer.ts';

/** What the person answered here, so the banner can confirm it and offer a change. */
interface Answered {
  event: CallEventSummary;
  optionId: string;
}

function EventAlert({
  event,
  answered,
  onAnswered,
  onDismiss,
}: {
  event: CallEventSummary;
  answered: string | undefined;
  onAnswered(optionId: string): void;
  onDismiss(): void;
}) {
  const { t } = useTranslation('calltree');
  const { pathname } = useLocation();
  const { submit, busy } = useSubmitAnswer(event.id);
  const queued = useQueuedAnswers(event.id).at(-1);
  const [changing, setChanging] = useState(false);
  const real = event.kind === 'real';
  const shownOption = queued?.body.optionId ?? answered;
  const label = (id: string) => {
    const option = event.options.find((o) => o.id === id);
    return option ? optionLabel(option, t) : id;
  };
  return (
    <Alert
      aria-label={t('banner.label', { title: event.title })}
      severity={real ? 'error' : 'warning'}
      variant={real ? 'filled' : 'standard'}
      sx={{ mb: 2, borderRadius: 2, '& .MuiAlert-message': { width: '100%' } }}
    >
      <AlertTitle sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, alignItems: 'center' }}>
        <Chip
          size="small"
          label={real ? t('kind.real') : t('kind.drill')}
          color={real ? 'default' : 'warning'}
        />
        <Box component="span" sx={{ fontWeight: 700 }}>
          {event.title}
        </Box>
      </AlertTitle>
      <Typography variant="body2" sx={{ mb: 1.5, whiteSpace: 'pre-wrap' }}>
        {event.message}
      </Typography>
      {shownOption && !changing ? (
        <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 1, alignItems: 'center' }}>
          <Typography variant="body2" role="status" sx={{ fontWeight: 500 }}>
            {queued
              ? t('banner.queued', { answer: label(shownOption) })
              : t('banner.sent', { answer: label(shownOption) })}
          </Typography>
          <Button size="small" color="inherit" variant="outlined" onClick={() => setChanging(true)}>
            {t('banner.change')}
          </Button>
          {!queued && (
            <Button size="small" color="inherit" onClick={onDismiss}>
              {t('banner.dismiss')}
            </Button>
          )}
        </Stack>
      ) : (
        <>
          <Typography variant="body2" sx={{ fontWeight: 700, mb: 1 }}>
            {t('banner.question')}
          </Typography>
          <CallAnswerForm
            options={event.options}
            currentOptionId={shownOption ?? null}
            busy={busy}
            onAnswer={async (choice) => {
              const result = await submit(choice);
              if (result) {
                setChanging(false);
                onAnswered(choice.optionId);
              }
            }}
          />
        </>
      )}
      {/* On /terms the event page is not open yet: the person answers here, then accepts the terms. */}
      {pathname !== '/terms' && (
        <Button
          component={Link}
          to={`/calltree/event/${event.id}`}
          size="small"
          color="inherit"
          sx={{ mt: 1, px: 0 }}
        >
          {t('banner.open')}
        </Button>
      )}
    </Alert>
  );
}

/**
 * The offline message (SPEC.md section 4) in the page, above the banners, while an event waits for an
 * answer: the network-error dialog steps aside then (see NetworkErrorDialog), so nothing covers the
 * answer buttons; an answer made now is queued and sent once the connection is back.
 */
function OfflineNotice() {
  const { t } = useTranslation();
  const titleId = useId();
  return (
    <Alert
      role="alert"
      aria-labelledby={titleId}
      severity="warning"
      icon={<WifiOff fontSize="inherit" />}
      sx={{ mb: 2, borderRadius: 2 }}
    >
      <AlertTitle id={titleId}>{t('dialogs.offline.title')}</AlertTitle>
      {t('dialogs.offline.text')}
    </Alert>
  );
}

/** The banners of the events waiting for the person's answer, and of those just answered here. */
export default function EventBanners({ pending }: { pending: CallEventSummary[] }) {
  const online = useOnline();
  // Answered here: kept after the event leaves the pending list, to confirm and allow a change.
  const [answered, setAnswered] = useState<Record<string, Answered>>({});
  const [dismissed, setDismissed] = useState<Set<string>>(new Set());
  const shown = new Map<string, CallEventSummary>();
  for (const event of pending) shown.set(event.id, event);
  for (const { event } of Object.values(answered)) if (!shown.has(event.id)) shown.set(event.id, event);
  const events = [...shown.values()].filter((e) => !dismissed.has(e.id));
  if (!events.length) return null;
  return (
    <Box>
      {!online && pending.length > 0 && <OfflineNotice />}
      {events.map((event) => (
        <EventAlert
          key={event.id}
          event={event}
          answered={answered[event.id]?.optionId}
          onAnswered={(optionId) => setAnswered((a) => ({ ...a, [event.id]: { event, optionId } }))}
          onDismiss={() => setDismissed((d) => new Set(d).add(event.id))}
        />
      ))}
    </Box>
  );
}
