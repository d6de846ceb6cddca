import type { DirectoryPerson } from '@btalk/contracts';
import Autocomplete from '@mui/material/Autocomplete';
import TextField from '@mui/material/TextField';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { callTreeKeys } from '../../../api/queryKeys.ts';
import { useServices } from '../../../services.tsx';

/** Picks a person by searching the directory (name or e-mail). */
export function PersonSearch({
  label,
  value,
  onChange,
}: {
  label: string;
  value: DirectoryPerson | null;
  onChange(person: DirectoryPerson | null): void;
}) {
  const { t } = useTranslation('calltree');
  const { api } = useServices();
  const [input, setInput] = useState('');
  const [q, setQ] = useState('');
  // Waits for a pause in typing, so that each key does not cost a request.
  useEffect(() => {
    const timer = setTimeout(() => setQ(input.trim()), 250);
    return () => clearTimeout(timer);
  }, [input]);
  const found = useQuery({
    queryKey: [...callTreeKeys.all, 'directory', q],
    queryFn: () => api.calltree.searchDirectory(q),
    enabled: q.length > 0,
    staleTime: 60_000,
  });
  return (
    <Autocomplete
      options={found.data ?? []}
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
