import type { User } from '@btalk/contracts';
import Autocomplete from '@mui/material/Autocomplete';
import TextField from '@mui/material/TextField';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { usePeopleSearch } from '../../../components/PeoplePicker.tsx';

/** Picks a person by searching the directory (name, e-mail or department): the one people search. */
export function PersonSearch({
  label,
  value,
  onChange,
}: {
  label: string;
  value: User | null;
  onChange(person: User | null): void;
}) {
  const { t } = useTranslation('calltree');
  const [input, setInput] = useState('');
  const q = input.trim();
  // Waits for a pause in typing (inside the search), so that each key does not cost a request.
  const found = usePeopleSearch(input, q.length > 0);
  return (
    <Autocomplete
      options={q ? (found.data?.items ?? []) : []}
      value={value}
      onChange={(_e, person) => onChange(person)}
      inputValue={input}
      onInputChange={(_e, text) => setInput(text)}
      filterOptions={(x) => x}
      getOptionLabel={(p) => `${p.displayName} <${p.email}>`}
      isOptionEqualToValue={(a, b) => a.id === b.id}
      loading={found.isFetching}
      loadingText={t('loading')}
      noOptionsText={q ? t('search.none') : t('search.type')}
      renderInput={(params) => <TextField {...params} label={label} size="small" />}
    />
  );
}
