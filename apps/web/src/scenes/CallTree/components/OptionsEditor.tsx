import type { CallEventOption } from '@btalk/contracts';
import {
  MAX_CALL_EVENT_OPTIONS,
  MAX_CALL_OPTION_LABEL_LENGTH,
  MIN_CALL_EVENT_OPTIONS,
} from '@btalk/contracts/constants';
import Add from '@mui/icons-material/Add';
import Delete from '@mui/icons-material/Delete';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormLabel from '@mui/material/FormLabel';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useTranslation } from 'react-i18next';

/** Edits an event's answer options: their text and whether each means "need help". */
export function OptionsEditor({
  options,
  onChange,
}: {
  options: CallEventOption[];
  onChange(options: CallEventOption[]): void;
}) {
  const { t } = useTranslation('calltree');
  const update = (index: number, patch: Partial<CallEventOption>) =>
    onChange(options.map((o, i) => (i === index ? { ...o, ...patch } : o)));
  const add = () => {
    let n = options.length + 1;
    while (options.some((o) => o.id === `option-${n}`)) n++;
    onChange([...options, { id: `option-${n}`, label: '', needsHelp: false }]);
  };
  return (
    <Stack component="fieldset" sx={{ border: 0, p: 0, m: 0, gap: 1 }}>
      <FormLabel component="legend" sx={{ mb: 1 }}>
        {t('start.options')}
      </FormLabel>
      {options.map((option, index) => (
        <Stack key={option.id} direction="row" sx={{ columnGap: 1, alignItems: 'center', flexWrap: 'wrap' }}>
          <TextField
            size="small"
            label={t('start.optionLabel', { n: index + 1 })}
            value={option.label}
            onChange={(e) => update(index, { label: e.target.value })}
            slotProps={{ htmlInput: { maxLength: MAX_CALL_OPTION_LABEL_LENGTH } }}
            sx={{ flex: '1 1 160px' }}
            required
          />
          <Stack direction="row" sx={{ alignItems: 'center', ml: 'auto' }}>
            <FormControlLabel
              control={
                <Checkbox
                  checked={option.needsHelp}
                  onChange={(e) => update(index, { needsHelp: e.target.checked })}
                />
              }
              label={t('start.needsHelp')}
              sx={{ mr: 0, '& .MuiFormControlLabel-label': { fontSize: 14, lineHeight: 1.2 } }}
            />
            <IconButton
              aria-label={t('start.removeOption', { n: index + 1 })}
              disabled={options.length <= MIN_CALL_EVENT_OPTIONS}
              onClick={() => onChange(options.filter((_, i) => i !== index))}
            >
              <Delete />
            </IconButton>
          </Stack>
        </Stack>
      ))}
      {options.length < MAX_CALL_EVENT_OPTIONS && (
        <Button startIcon={<Add />} onClick={add} sx={{ alignSelf: 'flex-start' }}>
          {t('start.addOption')}
        </Button>
      )}
    </Stack>
  );
}
