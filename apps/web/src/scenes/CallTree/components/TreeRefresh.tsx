import type { CallTreeDetail, CallTreePersonRef, RefreshCallTreeResponse } from '@btalk/contracts';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { callTreeKeys } from '../../../api/queryKeys.ts';
import { useServices } from '../../../services.tsx';
import { dialogs } from '../../../stores/dialogs.ts';
import { UnplacedList } from './UnplacedList.tsx';

function Group({
  title,
  items,
}: {
  title: string;
  items: Array<{ id: string; primary: string; secondary?: string }>;
}) {
  if (!items.length) return null;
  return (
    <Box component="section" aria-label={title} sx={{ mt: 2 }}>
      <Typography variant="subtitle2">{title}</Typography>
      <List dense disablePadding>
        {items.map((i) => (
          <ListItem key={i.id} disableGutters>
            <ListItemText primary={i.primary} secondary={i.secondary} />
          </ListItem>
        ))}
      </List>
    </Box>
  );
}

const ref = (p: CallTreePersonRef) => ({ id: p.id, primary: `${p.displayName} <${p.email}>` });

/** Compares a directory tree with the directory (who joined, left or moved, who cannot be placed), then applies it. */
export function TreeRefresh({ tree }: { tree: CallTreeDetail }) {
  const { t } = useTranslation('calltree');
  const { api } = useServices();
  const queryClient = useQueryClient();
  const [preview, setPreview] = useState<RefreshCallTreeResponse | null>(null);
  const names = new Map(tree.members.map((m) => [m.id, m.displayName]));
  const refresh = useMutation({
    // Reads the whole directory branch: the loading dialog while it does.
    meta: { overlay: 'loading' },
    mutationFn: (apply: boolean) => api.calltree.refreshTree(tree.id, apply),
    onSuccess: (result) => {
      setPreview(result.applied ? null : result);
      if (result.applied) {
        dialogs.showSnack(t('refresh.applied'));
        void queryClient.invalidateQueries({ queryKey: callTreeKeys.all });
      }
    },
  });
  if (tree.source !== 'directory') return <Alert severity="info">{t('refresh.notDirectory')}</Alert>;
  const nothing =
    preview &&
    !preview.joined.length &&
    !preview.left.length &&
    !preview.moved.length &&
    !preview.unplaced.length;
  const managerName = (id: string | null) => (id ? (names.get(id) ?? id) : t('refresh.top'));
  return (
    <Box>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        {t('refresh.intro')}
      </Typography>
      <Stack direction="row" sx={{ gap: 1 }}>
        <Button variant="outlined" disabled={refresh.isPending} onClick={() => refresh.mutate(false)}>
          {t('refresh.preview')}
        </Button>
        {preview && !nothing && (
          <Button variant="contained" disabled={refresh.isPending} onClick={() => refresh.mutate(true)}>
            {t('refresh.apply')}
          </Button>
        )}
      </Stack>
      {nothing && (
        <Alert severity="success" sx={{ mt: 2 }}>
          {t('refresh.upToDate')}
        </Alert>
      )}
      {preview && (
        <>
          <Group
            title={t('refresh.joined', { count: preview.joined.length })}
            items={preview.joined.map(ref)}
          />
          <Group title={t('refresh.left', { count: preview.left.length })} items={preview.left.map(ref)} />
          <Group
            title={t('refresh.moved', { count: preview.moved.length })}
            items={preview.moved.map((m) => ({
              id: m.id,
              primary: m.displayName,
              secondary: t('refresh.fromTo', {
                from: managerName(m.fromManagerId),
                to: managerName(m.toManagerId),
              }),
            }))}
          />
          <UnplacedList people={preview.unplaced} />
        </>
      )}
    </Box>
  );
}
