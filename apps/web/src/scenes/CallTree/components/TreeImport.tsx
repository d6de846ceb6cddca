import type { CallTreeDetail, ImportCallTreeResponse } from '@btalk/contracts';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { callTreeKeys } from '../../../api/queryKeys.ts';
import { useServices } from '../../../services.tsx';
import { dialogs } from '../../../stores/dialogs.ts';

/** Replaces a tree's people from a CSV (`email,manager email`): a preview with per-row errors first. */
export function TreeImport({ tree }: { tree: CallTreeDetail }) {
  const { t } = useTranslation('calltree');
  const { api } = useServices();
  const queryClient = useQueryClient();
  const [csv, setCsv] = useState('');
  const [preview, setPreview] = useState<ImportCallTreeResponse | null>(null);
  const run = useMutation({
    meta: { overlay: 'spinner' },
    mutationFn: (apply: boolean) => api.calltree.importCsv(tree.id, csv, apply),
    onSuccess: (result) => {
      if (result.applied) {
        setPreview(null);
        setCsv('');
        dialogs.showSnack(t('import.applied', { count: result.rows.length }));
        void queryClient.invalidateQueries({ queryKey: callTreeKeys.all });
      } else setPreview(result);
    },
  });
  const readFile = async (file: File | undefined) => {
    if (!file) return;
    setCsv(await file.text());
    setPreview(null);
  };
  return (
    <Box>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        {t('import.intro')}
      </Typography>
      <Stack sx={{ gap: 1.5 }}>
        <Button variant="outlined" component="label" sx={{ alignSelf: 'flex-start' }}>
          {t('import.chooseFile')}
          <input
            hidden
            type="file"
            accept=".csv,text/csv"
            onChange={(e) => void readFile(e.target.files?.[0])}
          />
        </Button>
        <TextField
          label={t('import.csv')}
          value={csv}
          onChange={(e) => {
            setCsv(e.target.value);
            setPreview(null);
          }}
          multiline
          minRows={4}
          maxRows={12}
          slotProps={{ htmlInput: { spellCheck: false, style: { fontFamily: 'monospace' } } }}
        />
        <Stack direction="row" sx={{ gap: 1 }}>
          <Button
            variant="outlined"
            disabled={!csv.trim() || run.isPending}
            onClick={() => run.mutate(false)}
          >
            {t('import.preview')}
          </Button>
          <Button
            variant="contained"
            disabled={!preview || preview.errorCount > 0 || run.isPending}
            onClick={() => run.mutate(true)}
          >
            {t('import.apply')}
          </Button>
        </Stack>
      </Stack>
      {preview && (
        <>
          <Alert severity={preview.errorCount ? 'error' : 'success'} sx={{ mt: 2 }}>
            {preview.errorCount
              ? t('import.errors', { count: preview.errorCount })
              : t('import.ok', { count: preview.rows.length })}
          </Alert>
          <Box sx={{ overflowX: 'auto', mt: 1 }}>
            <Table size="small" aria-label={t('import.previewTable')}>
              <TableHead>
                <TableRow>
                  <TableCell>{t('import.line')}</TableCell>
                  <TableCell>{t('import.email')}</TableCell>
                  <TableCell>{t('import.managerEmail')}</TableCell>
                  <TableCell>{t('import.result')}</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {preview.rows.map((row) => (
                  <TableRow
                    key={row.line}
                    sx={
                      row.error
                        ? { bgcolor: 'error.main', '& td': { color: 'error.contrastText' } }
                        : undefined
                    }
                  >
                    <TableCell>{row.line}</TableCell>
                    <TableCell>{row.email}</TableCell>
                    <TableCell>{row.managerEmail || t('refresh.top')}</TableCell>
                    <TableCell>{row.error ?? row.displayName}</TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </Box>
        </>
      )}
    </Box>
  );
}
