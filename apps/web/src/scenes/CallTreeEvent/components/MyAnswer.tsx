import type { CallEventDetail } from '@btalk/contracts';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { CallAnswerForm } from '../../../components/callEvent/CallAnswerForm.tsx';
import { optionLabel } from '../../../components/callEvent/labels.ts';
import { useSubmitAnswer } from '../../../components/callEvent/useSubmitAnswer.ts';
import { useQueuedAnswers } from '../../../offline/index.ts';

/** The viewer's own answer to the event, which they may give or change while it runs. */
export function MyAnswer({ event }: { event: CallEventDetail }) {
  const { t, i18n } = useTranslation('calltree');
  const { submit, busy } = useSubmitAnswer(event.id);
  const queued = useQueuedAnswers(event.id)
    .filter((q) => !q.body.personId)
    .at(-1);
  const mine = event.myAnswer;
  const current = queued?.body.optionId ?? mine?.optionId ?? null;
  const option = event.options.find((o) => o.id === current);
  let text = t('myAnswer.none');
  if (queued && option) text = t('myAnswer.queued', { answer: optionLabel(option, t) });
  else if (mine && option) {
    text = t(mine.onBehalf ? 'myAnswer.givenFor' : 'myAnswer.given', {
      answer: optionLabel(option, t),
      name: mine.answeredByName,
      at: new Date(mine.answeredAt).toLocaleString(i18n.language, { timeStyle: 'short', dateStyle: 'short' }),
    });
  }
  return (
    <Paper
      component="section"
      aria-labelledby="my-answer-heading"
      variant="outlined"
      sx={{ p: 2, mb: 3, borderRadius: 2 }}
    >
      <Typography id="my-answer-heading" variant="h6" component="h2">
        {t('myAnswer.title')}
      </Typography>
      <Typography variant="body2" role="status" sx={{ mb: 1.5 }}>
        {text}
        {mine?.note && !queued ? ` · ${mine.note}` : ''}
      </Typography>
      {event.abilities.answer && (
        <CallAnswerForm
          options={event.options}
          currentOptionId={current}
          busy={busy}
          onAnswer={(choice) => void submit(choice)}
        />
      )}
    </Paper>
  );
}
