import type { RefusedFileTypes } from '@btalk/contracts';
import { MAX_REFUSED_EXTENSIONS, REFUSED_EXTENSION_PATTERN } from '@btalk/contracts/constants';
import Close from '@mui/icons-material/Close';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { uploadSettingsKeys } from '../../../api/queryKeys.ts';
import { useServices } from '../../../services.tsx';
import { dialogs } from '../../../stores/dialogs.ts';

/** An extension as typed: `.EXE` and `exe` are the same; null when it is not one. */
function cleanExtension(typed: string): string | null {
  const value = typed.trim().replace(/^\./, '').toLowerCase();
  return REFUSED_EXTENSION_PATTERN.test(value) ? value : null;
}

/** The refused file types as chips to remove, a field to add one, and Save for the whole list. */
export function RefusedTypesForm({ current }: { current: RefusedFileTypes }) {
  const { t, i18n } = useTranslation('uploadsAdmin');
  const { api } = useServices();
  const queryClient = useQueryClient();
  const [list, setList] = useState<string[]>(current.extensions);
  const [typed, setTyped] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const save = useMutation({
    mutationFn: () => api.uploadSettings.setRefusedTypes({ extensions: list }),
    onSuccess: (saved) => {
      queryClient.setQueryData(uploadSettingsKeys.refusedTypes, saved);
      dialogs.showSnack(t('saved'));
    },
  });

  const add = (e: FormEvent) => {
    e.preventDefault();
    const extension = cleanExtension(typed);
    if (!extension) return setProblem(t('badExtension'));
    if (list.length >= MAX_REFUSED_EXTENSIONS)
      return setProblem(t('tooMany', { count: MAX_REFUSED_EXTENSIONS }));
    setProblem(null);
    setTyped('');
    if (!list.includes(extension)) setList([...list, extension].sort());
  };
  const changed = list.join(',') !== current.extensions.join(',');
  const when = current.updatedAt
    ? new Intl.DateTimeFormat(i18n.resolvedLanguage, { dateStyle: 'medium', timeStyle: 'short' }).format(
        new Date(current.updatedAt),
      )
    : null;

  return (
    <Stack sx={{ gap: 2, maxWidth: 720 }}>
      <Typography>{t('intro')}</Typography>
      <Typography variant="body2" color="text.secondary">
        {current.source === 'default' || !current.updatedBy || !when
          ? t('sourceDefault')
          : t('sourceAdmin', { name: current.updatedBy.displayName, when })}
      </Typography>
      <Box role="list" aria-label={t('listLabel')} sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.75 }}>
        {list.length === 0 && <Typography color="text.secondary">{t('empty')}</Typography>}
        {list.map((extension) => (
          <Chip
            key={extension}
            role="listitem"
            variant="outlined"
            label={
              <Box component="span" sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.25 }}>
                .{extension}
                <IconButton
                  size="small"
                  aria-label={t('remove', { extension })}
                  onClick={() => setList(list.filter((e) => e !== extension))}
                  sx={{ p: 0.25, mr: -0.75 }}
                >
                  <Close sx={{ fontSize: 16 }} />
                </IconButton>
              </Box>
            }
          />
        ))}
      </Box>
      <Box component="form" onSubmit={add} sx={{ display: 'flex', gap: 1, alignItems: 'flex-start' }}>
        <TextField
          size="small"
          label={t('addLabel')}
          value={typed}
          onChange={(e) => setTyped(e.target.value)}
          error={problem !== null}
          helperText={problem ?? t('addHelp')}
        />
        <Button type="submit" variant="outlined">
          {t('add')}
        </Button>
      </Box>
      <Box sx={{ display: 'flex', gap: 1 }}>
        <Button
          variant="contained"
          onClick={() => save.mutate()}
          disabled={!changed}
          loading={save.isPending}
        >
          {t('save')}
        </Button>
        <Button onClick={() => setList(current.extensions)} disabled={!changed}>
          {t('undo')}
        </Button>
      </Box>
    </Stack>
  );
}
