import type { CallEventOption, CallPerson } from '@btalk/contracts';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { optionLabel, statusColor, statusLabel } from '../../../components/callEvent/labels.ts';
import { PersonButton } from '../../../components/PersonCard/PersonButton.tsx';

function Phone({ number }: { number: string | null }) {
  if (!number) return null;
  return <Link href={`tel:${number.replace(/[^\d+]/g, '')}`}>{number}</Link>;
}

/** One person of the roll-up: status, answer, and for those without one, their manager and phone. */
export function PersonRow({
  person,
  options,
  onAnswerFor,
}: {
  person: CallPerson;
  options: CallEventOption[];
  /** Present when the viewer may answer for this person. */
  onAnswerFor?: () => void;
}) {
  const { t, i18n } = useTranslation('calltree');
  const option = options.find((o) => o.id === person.optionId);
  const answerText = option ? optionLabel(option, t) : statusLabel(person.status, t);
  return (
    <Box
      component="article"
      aria-label={person.displayName}
      sx={{ py: 1.5, px: 1, borderBottom: 1, borderColor: 'divider' }}
    >
      <Stack direction="row" sx={{ gap: 1, alignItems: 'center', flexWrap: 'wrap' }}>
        {/* The name opens the person's profile card: their manager and phone at hand when chasing. */}
        <PersonButton person={person}>
          <Typography component="span" sx={{ fontWeight: 700 }}>
            {person.displayName}
          </Typography>
        </PersonButton>
        <Chip size="small" color={statusColor(person.status)} label={answerText} />
        {person.onBehalf && <Chip size="small" variant="outlined" label={t('people.onBehalf')} />}
        {person.escalations > 0 && (
          <Chip
            size="small"
            variant="outlined"
            color="warning"
            label={t('people.escalations', { count: person.escalations })}
          />
        )}
        <Box sx={{ flex: 1 }} />
        {onAnswerFor && (
          <Button size="small" variant="outlined" onClick={onAnswerFor}>
            {t('people.answerFor')}
          </Button>
        )}
      </Stack>
      <Typography variant="body2" color="text.secondary">
        {[person.department, person.email].filter(Boolean).join(' · ')}
        {person.phone && ' · '}
        <Phone number={person.phone} />
      </Typography>
      {(person.note || person.location) && (
        <Typography variant="body2" sx={{ mt: 0.5 }}>
          {person.note}
          {person.note && person.location && ' · '}
          {person.location && t('people.location', { location: person.location })}
        </Typography>
      )}
      {person.answeredAt && person.answeredByName && (
        <Typography variant="caption" color="text.secondary" component="p">
          {t('people.answeredBy', {
            name: person.answeredByName,
            at: new Date(person.answeredAt).toLocaleString(i18n.language, {
              timeStyle: 'short',
              dateStyle: 'short',
            }),
          })}
        </Typography>
      )}
      {person.status === 'no_answer' && person.managerName && (
        <Typography variant="body2" sx={{ mt: 0.5 }}>
          {t('people.manager', { name: person.managerName })}
          {person.managerPhone && ' · '}
          <Phone number={person.managerPhone} />
        </Typography>
      )}
    </Box>
  );
}
