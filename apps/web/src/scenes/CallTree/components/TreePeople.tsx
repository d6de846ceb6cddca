import type { CallTreeDetail, CallTreeNode, User } from '@btalk/contracts';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { callTreeKeys } from '../../../api/queryKeys.ts';
import { VirtualList } from '../../../components/VirtualList.tsx';
import { useServices } from '../../../services.tsx';
import { dialogs } from '../../../stores/dialogs.ts';
import { branchSizes, inTreeOrder } from './branchSizes.ts';
import { MemberPicker } from './MemberPicker.tsx';
import { PersonSearch } from './PersonSearch.tsx';

function below(members: CallTreeNode[], id: string): Set<string> {
  const out = new Set([id]);
  let grew = true;
  while (grew) {
    grew = false;
    for (const m of members) {
      if (m.managerId && out.has(m.managerId) && !out.has(m.id)) {
        out.add(m.id);
        grew = true;
      }
    }
  }
  return out;
}

/** A tree's people in tree order; admins move, add and remove them. */
export function TreePeople({ tree }: { tree: CallTreeDetail }) {
  const { t } = useTranslation('calltree');
  const { api } = useServices();
  const queryClient = useQueryClient();
  const ordered = useMemo(() => inTreeOrder(tree.members), [tree.members]);
  const sizes = useMemo(() => branchSizes(tree.members), [tree.members]);
  const [moving, setMoving] = useState<CallTreeNode | null>(null);
  const [moveTo, setMoveTo] = useState<string | null>(null);
  const [adding, setAdding] = useState<User | null>(null);
  const [addUnder, setAddUnder] = useState<string | null>(null);
  const changed = () => queryClient.invalidateQueries({ queryKey: callTreeKeys.all });
  const move = useMutation({
    mutationFn: (m: CallTreeNode) => api.calltree.moveMember(tree.id, m.id, moveTo),
    onSuccess: () => {
      setMoving(null);
      void changed();
    },
  });
  const remove = useMutation({
    mutationFn: (id: string) => api.calltree.removeMember(tree.id, id),
    onSuccess: changed,
  });
  const add = useMutation({
    mutationFn: (p: User) => api.calltree.addMember(tree.id, { userId: p.id, managerId: addUnder }),
    onSuccess: () => {
      setAdding(null);
      void changed();
    },
  });
  const askRemove = async (m: CallTreeNode) => {
    const yes = await dialogs.confirm({
      title: t('tree.removeTitle', { name: m.displayName }),
      text: t('tree.removeText'),
      confirmLabel: t('tree.remove'),
    });
    if (yes) remove.mutate(m.id);
  };
  const edit = tree.abilities.edit;
  return (
    <Box>
      {edit && (
        <Stack
          direction={{ xs: 'column', sm: 'row' }}
          sx={{ gap: 1, mb: 2, alignItems: { sm: 'flex-start' } }}
        >
          <Box sx={{ flex: 1 }}>
            <PersonSearch label={t('tree.addPerson')} value={adding} onChange={setAdding} />
          </Box>
          <Box sx={{ flex: 1 }}>
            <MemberPicker
              members={tree.members}
              value={addUnder}
              onChange={setAddUnder}
              label={t('tree.under')}
              helperText={t('tree.underHelp')}
            />
          </Box>
          <Button
            variant="contained"
            disabled={!adding || add.isPending}
            onClick={() => adding && add.mutate(adding)}
          >
            {t('tree.add')}
          </Button>
        </Stack>
      )}
      {ordered.length === 0 ? (
        <Typography color="text.secondary">{t('tree.noPeople')}</Typography>
      ) : (
        <VirtualList
          label={t('tree.people')}
          height={420}
          items={ordered}
          itemKey={(m) => m.id}
          renderItem={(m) => (
            <Stack
              direction="row"
              sx={{
                alignItems: 'center',
                gap: 1,
                py: 0.75,
                pl: Math.min(m.depth, 8) * 2,
                borderBottom: 1,
                borderColor: 'divider',
              }}
            >
              <Box sx={{ flex: 1, minWidth: 0 }}>
                <Typography variant="body2" noWrap sx={{ fontWeight: 500 }}>
                  {m.displayName}
                  {(sizes.get(m.id) ?? 1) > 1 && (
                    <Typography component="span" variant="caption" color="text.secondary">
                      {' '}
                      {t('tree.branchSize', { count: sizes.get(m.id) })}
                    </Typography>
                  )}
                </Typography>
                <Typography variant="caption" color="text.secondary" noWrap component="p">
                  {[m.jobTitle, m.department].filter(Boolean).join(' · ') || m.email}
                </Typography>
              </Box>
              {edit && (
                <>
                  <Button
                    size="small"
                    onClick={() => {
                      setMoving(m);
                      setMoveTo(m.managerId);
                    }}
                    aria-label={t('tree.moveName', { name: m.displayName })}
                  >
                    {t('tree.move')}
                  </Button>
                  <Button
                    size="small"
                    color="error"
                    onClick={() => askRemove(m)}
                    aria-label={t('tree.removeName', { name: m.displayName })}
                  >
                    {t('tree.remove')}
                  </Button>
                </>
              )}
            </Stack>
          )}
        />
      )}
      {moving && (
        <Dialog open onClose={() => setMoving(null)} fullWidth maxWidth="xs" aria-labelledby="move-title">
          <DialogTitle id="move-title">{t('tree.moveTitle', { name: moving.displayName })}</DialogTitle>
          <DialogContent>
            <Box sx={{ pt: 1 }}>
              <MemberPicker
                members={tree.members.filter((m) => !below(tree.members, moving.id).has(m.id))}
                value={moveTo}
                onChange={setMoveTo}
                label={t('tree.newManager')}
                helperText={t('tree.underHelp')}
              />
            </Box>
          </DialogContent>
          <DialogActions>
            <Button onClick={() => setMoving(null)}>{t('common:dialogs.cancel')}</Button>
            <Button variant="contained" disabled={move.isPending} onClick={() => move.mutate(moving)}>
              {t('tree.move')}
            </Button>
          </DialogActions>
        </Dialog>
      )}
    </Box>
  );
}
