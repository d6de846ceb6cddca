import type { CallEventOption, CallPerson, ReachedVia } from '@btalk/contracts';
import { MAX_CALL_ANSWER_NOTE_LENGTH } from '@btalk/contracts/constants';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormLabel from '@mui/material/FormLabel';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import TextField from '@mui/material/TextField';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { optionLabel } from '../../../components/callEvent/labels.ts';
import { useSubmitAnswer } from '../../../components/callEvent/useSubmitAnswer.ts';

const REACHED: ReachedVia[] = ['phone', 'in_person', 'message', 'other'];

/** A manager answers for a report who has not answered, saying how they reached them. */
export function OnBehalfDialog({
  eventId,
  person,
  options,
  onClose,
}: {
  eventId: string;
  person: CallPerson;
  options: CallEventOption[];
  onClose(): void;
}) {
  const { t } = useTranslation('calltree');
  const { submit, busy } = useSubmitAnswer(eventId);
  const [optionId, setOptionId] = useState(options[0]?.id ?? '');
  const [reachedVia, setReachedVia] = useState<ReachedVia>('phone');
  const [note, setNote] = useState('');
  const save = async () => {
    const result = await submit({
      personId: person.id,
      optionId,
      reachedVia,
      ...(note.trim() ? { note: note.trim() } : {}),
    });
    if (result) onClose();
  };
  return (
    <Dialog open onClose={onClose} aria-labelledby="on-behalf-title" fullWidth maxWidth="xs">
      <DialogTitle id="on-behalf-title">{t('onBehalf.title', { name: person.displayName })}</DialogTitle>
      <DialogContent>
        <FormLabel id="on-behalf-answer">{t('onBehalf.answer')}</FormLabel>
        <RadioGroup
          aria-labelledby="on-behalf-answer"
          value={optionId}
          onChange={(e) => setOptionId(e.target.value)}
          sx={{ mb: 2 }}
        >
          {options.map((o) => (
            <FormControlLabel key={o.id} value={o.id} control={<Radio />} label={optionLabel(o, t)} />
          ))}
        </RadioGroup>
        <FormLabel id="on-behalf-reached">{t('onBehalf.reachedVia')}</FormLabel>
        <RadioGroup
          aria-labelledby="on-behalf-reached"
          value={reachedVia}
          onChange={(e) => setReachedVia(e.target.value as ReachedVia)}
          sx={{ mb: 2 }}
        >
          {REACHED.map((r) => (
            <FormControlLabel key={r} value={r} control={<Radio />} label={t(`reachedVia.${r}`)} />
          ))}
        </RadioGroup>
        <TextField
          label={t('answer.note')}
          value={note}
          onChange={(e) => setNote(e.target.value)}
          fullWidth
          size="small"
          slotProps={{ htmlInput: { maxLength: MAX_CALL_ANSWER_NOTE_LENGTH } }}
        />
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('common:dialogs.cancel')}</Button>
        <Button variant="contained" onClick={save} disabled={busy || !optionId}>
          {t('onBehalf.save')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
