import type { User } from '@btalk/contracts';
import Autocomplete from '@mui/material/Autocomplete';
import Chip from '@mui/material/Chip';
import ListItem from '@mui/material/ListItem';
import ListItemAvatar from '@mui/material/ListItemAvatar';
import ListItemText from '@mui/material/ListItemText';
import TextField from '@mui/material/TextField';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { queryKeys } from '../api/queryKeys.ts';
import { useServices } from '../services.tsx';
import { PersonAvatar } from './PersonAvatar.tsx';
import { useDebounced } from './useDebounced.ts';

/** The directory search behind the people picker and the composer's `@` mentions. */
export function usePeopleSearch(search: string, enabled = true) {
  const { api } = useServices();
  const settled = useDebounced(search.trim());
  return useQuery({
    queryKey: queryKeys.users(settled),
    queryFn: () => api.users.search(settled),
    enabled,
    placeholderData: keepPreviousData,
    staleTime: 60_000,
  });
}

/** Props of the people picker. */
export interface PeoplePickerProps {
  label: string;
  value: User[];
  onChange: (people: User[]) => void;
  /** People not to offer (e.g. the current members). */
  exclude?: readonly string[];
}

/** Picks people from the directory (GET /api/users?search=), as chips. */
export function PeoplePicker({ label, value, onChange, exclude = [] }: PeoplePickerProps) {
  const { t } = useTranslation();
  const [input, setInput] = useState('');
  const found = usePeopleSearch(input);
  const options = (found.data?.items ?? []).filter((u) => !exclude.includes(u.id));
  return (
    <Autocomplete
      multiple
      filterSelectedOptions
      options={options}
      value={value}
      loading={found.isFetching}
      filterOptions={(x) => x}
      getOptionLabel={(u) => u.displayName}
      isOptionEqualToValue={(a, b) => a.id === b.id}
      onChange={(_e, people) => onChange(people)}
      inputValue={input}
      onInputChange={(_e, text) => setInput(text)}
      noOptionsText={t('people.none')}
      loadingText={t('people.searching')}
      renderOption={({ key, ...props }, u) => (
        <ListItem key={key} {...props}>
          <ListItemAvatar>
            <PersonAvatar person={u} size={32} />
          </ListItemAvatar>
          <ListItemText
            primary={u.displayName}
            secondary={[u.department, u.email].filter(Boolean).join(' · ')}
          />
        </ListItem>
      )}
      renderValue={(people, getItemProps) =>
        people.map((u, index) => {
          const { key, ...itemProps } = getItemProps({ index });
          return <Chip key={key} label={u.displayName} size="small" {...itemProps} />;
        })
      }
      renderInput={(params) => <TextField {...params} label={label} />}
    />
  );
}
