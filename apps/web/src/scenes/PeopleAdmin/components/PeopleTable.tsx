import type { AdminPerson, AdminPersonUpdate } from '@btalk/contracts';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { ME_QUERY_KEY } from '../../../api/me.ts';
import { adminPeopleKeys } from '../../../api/queryKeys.ts';
import { useServices } from '../../../services.tsx';
import { dialogs } from '../../../stores/dialogs.ts';

type Action = 'makeAdmin' | 'removeAdmin' | 'disable' | 'enable';

const CHANGES: Record<Action, AdminPersonUpdate> = {
  makeAdmin: { role: 'admin' },
  removeAdmin: { role: 'member' },
  disable: { disabled: true },
  enable: { disabled: false },
};

/** The People screen's table: each person with their role, its source, their state, and the actions allowed. */
export function PeopleTable({ people, meId }: { people: AdminPerson[]; meId: string | undefined }) {
  const { t } = useTranslation('peopleAdmin');
  const { api } = useServices();
  const queryClient = useQueryClient();
  const change = useMutation({
    mutationFn: ({ person, action }: { person: AdminPerson; action: Action }) =>
      api.people.update(person.id, CHANGES[action]),
    onSuccess: (_updated, { person, action }) => {
      dialogs.showSnack(t(`done.${action}`, { name: person.displayName }));
      void queryClient.invalidateQueries({ queryKey: adminPeopleKeys.all });
      // Your own role changed: the menu and the screens follow your abilities.
      if (person.id === meId) void queryClient.invalidateQueries({ queryKey: ME_QUERY_KEY });
    },
  });
  const ask = async (person: AdminPerson, action: Action) => {
    const self = person.id === meId && action === 'removeAdmin';
    const yes = await dialogs.confirm({
      title: t(`confirm.${action}.title`, { name: person.displayName }),
      text: `${t(`confirm.${action}.text`, { name: person.displayName })}${self ? ` ${t('confirm.self')}` : ''}`,
      confirmLabel: t(`actions.${action}`),
    });
    if (yes) change.mutate({ person, action });
  };

  if (people.length === 0) return <Typography color="text.secondary">{t('empty')}</Typography>;
  return (
    <TableContainer>
      <Table size="small" aria-label={t('tableLabel')}>
        <TableHead>
          <TableRow>
            <TableCell>{t('columns.person')}</TableCell>
            <TableCell>{t('columns.department')}</TableCell>
            <TableCell>{t('columns.role')}</TableCell>
            <TableCell>{t('columns.roleSource')}</TableCell>
            <TableCell>{t('columns.state')}</TableCell>
            <TableCell>{t('columns.actions')}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {people.map((p) => {
            const actions = (Object.keys(CHANGES) as Action[]).filter((a) => p.abilities[a]);
            return (
              <TableRow key={p.id}>
                <TableCell>
                  {p.displayName}
                  <Typography variant="caption" component="div" color="text.secondary">
                    {p.email}
                  </Typography>
                </TableCell>
                <TableCell>{p.department ?? ''}</TableCell>
                <TableCell>
                  <Chip
                    size="small"
                    label={t(`roles.${p.role}`)}
                    color={p.role === 'admin' ? 'primary' : 'default'}
                    variant={p.role === 'admin' ? 'filled' : 'outlined'}
                  />
                </TableCell>
                <TableCell>{t(`sources.${p.roleSource}`)}</TableCell>
                <TableCell>
                  {p.disabled ? (
                    <Chip
                      size="small"
                      color="warning"
                      label={t(`states.disabledBy.${p.disabledSource ?? 'btalk'}`)}
                    />
                  ) : (
                    t('states.active')
                  )}
                </TableCell>
                <TableCell>
                  <Stack direction="row" spacing={1}>
                    {actions.map((action) => (
                      <Button
                        key={action}
                        size="small"
                        color={action === 'disable' || action === 'removeAdmin' ? 'warning' : 'primary'}
                        disabled={change.isPending}
                        onClick={() => void ask(p, action)}
                        aria-label={t(`actionsFor.${action}`, { name: p.displayName })}
                      >
                        {t(`actions.${action}`)}
                      </Button>
                    ))}
                  </Stack>
                </TableCell>
              </TableRow>
            );
          })}
        </TableBody>
      </Table>
    </TableContainer>
  );
}
