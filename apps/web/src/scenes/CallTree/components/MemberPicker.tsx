import type { CallTreeNode } from '@btalk/contracts';
import Autocomplete from '@mui/material/Autocomplete';
import TextField from '@mui/material/TextField';

/** Picks a member of the tree (a manager to move or add someone under); empty means the top. */
export function MemberPicker({
  members,
  value,
  onChange,
  label,
  helperText,
}: {
  members: CallTreeNode[];
  value: string | null;
  onChange(id: string | null): void;
  label: string;
  helperText?: string;
}) {
  return (
    <Autocomplete
      options={members}
      value={members.find((m) => m.id === value) ?? null}
      onChange={(_e, m) => onChange(m?.id ?? null)}
      getOptionLabel={(m) => `${m.displayName} <${m.email}>`}
      isOptionEqualToValue={(a, b) => a.id === b.id}
      renderInput={(params) => <TextField {...params} size="small" label={label} helperText={helperText} />}
    />
  );
}
