import Close from '@mui/icons-material/Close';
import Download from '@mui/icons-material/Download';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import IconButton from '@mui/material/IconButton';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { callTreeKeys } from '../../../api/queryKeys.ts';
import { downloadText } from '../../../components/download.ts';
import { SceneLoading } from '../../../components/SceneLoading.tsx';
import { useServices } from '../../../services.tsx';
import { TreeImport } from './TreeImport.tsx';
import { TreeManagers } from './TreeManagers.tsx';
import { TreePeople } from './TreePeople.tsx';
import { TreeRefresh } from './TreeRefresh.tsx';

type TabName = 'people' | 'refresh' | 'import';

/** One tree: its people (move, add, remove), refresh from the directory, CSV import and export. */
export function TreeDialog({ treeId, onClose }: { treeId: string; onClose(): void }) {
  const { t } = useTranslation('calltree');
  const { api } = useServices();
  const phone = useMediaQuery((theme) => theme.breakpoints.down('sm'));
  const [tab, setTab] = useState<TabName>('people');
  const tree = useQuery({ queryKey: callTreeKeys.tree(treeId), queryFn: () => api.calltree.tree(treeId) });
  const exportCsv = useMutation({
    mutationFn: () => api.calltree.exportCsv(treeId),
    onSuccess: (csv) => downloadText(csv, `call-tree-${treeId}.csv`),
  });
  const data = tree.data;
  return (
    <Dialog
      open
      onClose={onClose}
      fullScreen={phone}
      fullWidth
      maxWidth="md"
      aria-labelledby="tree-dialog-title"
    >
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, pr: 1 }}>
        <DialogTitle id="tree-dialog-title" sx={{ flex: 1, minWidth: 0 }}>
          {data ? t('tree.title', { name: data.name, count: data.memberCount }) : t('loading')}
        </DialogTitle>
        {data?.abilities.export && (
          <Button
            size="small"
            startIcon={<Download />}
            disabled={exportCsv.isPending}
            onClick={() => exportCsv.mutate()}
          >
            {t('tree.export')}
          </Button>
        )}
        <IconButton aria-label={t('common:dialogs.close')} onClick={onClose}>
          <Close />
        </IconButton>
      </Box>
      {data?.abilities.edit && (
        <Tabs value={tab} onChange={(_e, v: TabName) => setTab(v)} variant="scrollable" sx={{ px: 2 }}>
          <Tab value="people" label={t('tree.tabPeople')} />
          <Tab value="refresh" label={t('tree.tabRefresh')} />
          <Tab value="import" label={t('tree.tabImport')} />
        </Tabs>
      )}
      <DialogContent dividers>
        {tree.isError ? (
          <Alert severity="error">{t('tree.loadFailed')}</Alert>
        ) : !data ? (
          <SceneLoading />
        ) : tab === 'people' ? (
          <>
            {data.abilities.manageRoles && <TreeManagers tree={data} />}
            <TreePeople tree={data} />
          </>
        ) : tab === 'refresh' ? (
          <TreeRefresh tree={data} />
        ) : (
          <TreeImport tree={data} />
        )}
      </DialogContent>
    </Dialog>
  );
}
