import type { CallEventOption } from '@btalk/contracts';
import { MAX_CALL_ANSWER_LOCATION_LENGTH, MAX_CALL_ANSWER_NOTE_LENGTH } from '@btalk/contracts/constants';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Collapse from '@mui/material/Collapse';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { optionLabel } from './labels.ts';

/** What a person answers: an option, and optionally a note and where they are. */
export interface AnswerChoice {
  optionId: string;
  note?: string;
  location?: string;
}

/** Props of the answer buttons. */
export interface CallAnswerFormProps {
  options: CallEventOption[];
  /** The option answered now, highlighted. */
  currentOptionId?: string | null;
  busy?: boolean;
  onAnswer(choice: AnswerChoice): void;
}

/** One tap answers (Safe / Need help ...); a note and a location can be added before the tap. */
export function CallAnswerForm({ options, currentOptionId, busy, onAnswer }: CallAnswerFormProps) {
  const { t } = useTranslation('calltree');
  const [details, setDetails] = useState(false);
  const [note, setNote] = useState('');
  const [location, setLocation] = useState('');
  const detailsId = useId();
  const answer = (optionId: string) =>
    onAnswer({
      optionId,
      ...(note.trim() ? { note: note.trim() } : {}),
      ...(location.trim() ? { location: location.trim() } : {}),
    });
  return (
    <Box>
      <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 1, alignItems: 'center' }}>
        {options.map((option) => (
          <Button
            key={option.id}
            variant={currentOptionId && currentOptionId !== option.id ? 'outlined' : 'contained'}
            color={option.needsHelp ? 'error' : 'success'}
            disabled={busy}
            aria-pressed={currentOptionId === option.id}
            onClick={() => answer(option.id)}
            sx={{ minWidth: 112, minHeight: 44 }}
          >
            {optionLabel(option, t)}
          </Button>
        ))}
        <Button
          size="small"
          color="inherit"
          aria-expanded={details}
          aria-controls={detailsId}
          onClick={() => setDetails((d) => !d)}
        >
          {details ? t('answer.hideDetails') : t('answer.addDetails')}
        </Button>
      </Stack>
      <Collapse in={details} id={detailsId}>
        <Stack direction={{ xs: 'column', sm: 'row' }} sx={{ gap: 1, mt: 1.5 }}>
          <TextField
            size="small"
            label={t('answer.note')}
            value={note}
            onChange={(e) => setNote(e.target.value)}
            slotProps={{ htmlInput: { maxLength: MAX_CALL_ANSWER_NOTE_LENGTH } }}
            fullWidth
          />
          <TextField
            size="small"
            label={t('answer.location')}
            value={location}
            onChange={(e) => setLocation(e.target.value)}
            slotProps={{ htmlInput: { maxLength: MAX_CALL_ANSWER_LOCATION_LENGTH } }}
            fullWidth
          />
        </Stack>
      </Collapse>
    </Box>
  );
}
