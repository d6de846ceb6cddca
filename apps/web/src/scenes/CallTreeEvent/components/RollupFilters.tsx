import type { CallEventDetail, CallStatus } from '@btalk/contracts';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useTranslation } from 'react-i18next';
import type { RollupFilters as Filters } from '../../../api/calltree.ts';

const STATUSES: CallStatus[] = ['need_help', 'no_answer', 'safe'];

/** The status and department filters of the roll-up. */
export function RollupFilters({
  filters,
  departments,
  onChange,
}: {
  filters: Filters;
  departments: CallEventDetail['departments'];
  onChange(filters: Filters): void;
}) {
  const { t } = useTranslation('calltree');
  const set = (patch: Filters) => {
    const next = { ...filters, ...patch };
    onChange({
      ...(next.status ? { status: next.status } : {}),
      ...(next.department ? { department: next.department } : {}),
    });
  };
  return (
    <Stack direction={{ xs: 'column', sm: 'row' }} sx={{ gap: 2, mb: 2 }}>
      <TextField
        select
        size="small"
        label={t('filters.status')}
        value={filters.status ?? ''}
        onChange={(e) => set({ status: (e.target.value || undefined) as CallStatus | undefined })}
        sx={{ minWidth: 180 }}
      >
        <MenuItem value="">{t('filters.allStatuses')}</MenuItem>
        {STATUSES.map((s) => (
          <MenuItem key={s} value={s}>
            {t(`status.${s}`)}
          </MenuItem>
        ))}
      </TextField>
      <TextField
        select
        size="small"
        label={t('filters.department')}
        value={filters.department ?? ''}
        onChange={(e) => set({ department: e.target.value || undefined })}
        sx={{ minWidth: 220 }}
      >
        <MenuItem value="">{t('filters.allDepartments')}</MenuItem>
        {departments.map((d) => (
          <MenuItem key={d.name} value={d.name}>
            {t('filters.departmentCount', { name: d.name, count: d.count })}
          </MenuItem>
        ))}
      </TextField>
    </Stack>
  );
}
