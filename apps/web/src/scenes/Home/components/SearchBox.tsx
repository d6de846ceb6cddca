import { MAX_SEARCH_LENGTH } from '@btalk/contracts/constants';
import Search from '@mui/icons-material/Search';
import InputAdornment from '@mui/material/InputAdornment';
import TextField from '@mui/material/TextField';
import { useTranslation } from 'react-i18next';

/** The search field of home: topics and posts. */
export function SearchBox({ value, onChange }: { value: string; onChange: (q: string) => void }) {
  const { t } = useTranslation('home');
  return (
    <TextField
      type="search"
      size="small"
      fullWidth
      label={t('search.label')}
      value={value}
      onChange={(e) => onChange(e.target.value)}
      slotProps={{
        input: {
          startAdornment: (
            <InputAdornment position="start">
              <Search />
            </InputAdornment>
          ),
        },
        htmlInput: { maxLength: MAX_SEARCH_LENGTH },
      }}
    />
  );
}
