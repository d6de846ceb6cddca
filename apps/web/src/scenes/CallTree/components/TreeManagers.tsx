import type { CallTreeDetail, User } from '@btalk/contracts';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { callTreeKeys } from '../../../api/queryKeys.ts';
import { useServices } from '../../../services.tsx';
import { PersonSearch } from './PersonSearch.tsx';

/**
 * The tree's event managers (people besides admins who may start and close its events): admins grant
 * the role by searching the directory and take it back from the chips.
 */
export function TreeManagers({ tree }: { tree: CallTreeDetail }) {
  const { t } = useTranslation('calltree');
  const { api } = useServices();
  const queryClient = useQueryClient();
  const [adding, setAdding] = useState<User | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: callTreeKeys.tree(tree.id) });
  const grant = useMutation({
    mutationFn: (userId: string) => api.calltree.grantEventManager(tree.id, userId),
    onSuccess: () => {
      setAdding(null);
      return refresh();
    },
  });
  const revoke = useMutation({
    mutationFn: (userId: string) => api.calltree.revokeEventManager(tree.id, userId),
    onSuccess: refresh,
  });
  return (
    <Box component="section" aria-labelledby="tree-managers-title" sx={{ mb: 3 }}>
      <Typography id="tree-managers-title" variant="subtitle1" component="h3" sx={{ fontWeight: 700 }}>
        {t('managers.title')}
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
        {t('managers.help')}
      </Typography>
      {tree.eventManagers.length === 0 ? (
        <Typography variant="body2" sx={{ mb: 1 }}>
          {t('managers.none')}
        </Typography>
      ) : (
        <Stack component="ul" sx={{ listStyle: 'none', p: 0, m: 0, mb: 1, gap: 0.5 }}>
          {tree.eventManagers.map((m) => (
            <Stack component="li" key={m.id} direction="row" sx={{ alignItems: 'center', gap: 1 }}>
              <Typography variant="body2" sx={{ flex: 1, minWidth: 0 }} noWrap>
                {m.displayName}{' '}
                <Box component="span" sx={{ color: 'text.secondary' }}>
                  {m.email}
                </Box>
              </Typography>
              <Button
                size="small"
                color="secondary"
                disabled={revoke.isPending}
                aria-label={t('managers.revoke', { name: m.displayName })}
                onClick={() => revoke.mutate(m.id)}
              >
                {t('managers.revokeShort')}
              </Button>
            </Stack>
          ))}
        </Stack>
      )}
      <Stack direction={{ xs: 'column', sm: 'row' }} sx={{ gap: 1, alignItems: { sm: 'center' } }}>
        <Box sx={{ flex: 1 }}>
          <PersonSearch label={t('managers.add')} value={adding} onChange={setAdding} />
        </Box>
        <Button
          variant="outlined"
          disabled={!adding || grant.isPending}
          onClick={() => adding && grant.mutate(adding.id)}
        >
          {t('managers.grant')}
        </Button>
      </Stack>
    </Box>
  );
}
