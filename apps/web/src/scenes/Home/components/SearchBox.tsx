import { MAX_SEARCH_LENGTH } from '@btalk/contracts/constants';
import Search from '@mui/icons-material/Search';
import Box from '@mui/material/Box';
import InputBase from '@mui/material/InputBase';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { visuallyHidden } from '../../../components/visuallyHidden.ts';

/**
 * The search field of home: topics and posts. An outlined `InputBase` with its label shown as the
 * placeholder and given to the field by a `<label>`, rather than MUI's TextField, which would bring
 * FormControl, the floating label and Select onto the first screen (about 8 KB sent, issue 14).
 */
export function SearchBox({ value, onChange }: { value: string; onChange: (q: string) => void }) {
  const { t } = useTranslation('home');
  const id = useId();
  const label = t('search.label');
  return (
    <Box
      sx={{
        display: 'flex',
        alignItems: 'center',
        gap: 1,
        flexGrow: 1,
        px: 1.5,
        height: 40,
        borderRadius: 1,
        border: 1,
        borderColor: 'divider',
        bgcolor: 'background.paper',
        '&:hover': { borderColor: 'text.primary' },
        '&:focus-within': {
          borderColor: 'primary.main',
          boxShadow: (theme) => `inset 0 0 0 1px ${theme.palette.primary.main}`,
        },
      }}
    >
      <Search color="action" aria-hidden />
      <Box component="label" htmlFor={id} sx={visuallyHidden}>
        {label}
      </Box>
      <InputBase
        id={id}
        type="search"
        fullWidth
        placeholder={label}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        slotProps={{ input: { maxLength: MAX_SEARCH_LENGTH } }}
      />
    </Box>
  );
}
