import type { CreateCallTreeResponse, User } from '@btalk/contracts';
import { MAX_CALL_TREE_NAME_LENGTH } from '@btalk/contracts/constants';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { callTreeKeys } from '../../../api/queryKeys.ts';
import { useServices } from '../../../services.tsx';
import { PersonSearch } from './PersonSearch.tsx';
import { UnplacedList } from './UnplacedList.tsx';

/** An admin builds a tree from the directory's manager chain (the whole directory or a branch), or an empty one. */
export function NewTreeDialog({ onClose, onCreated }: { onClose(): void; onCreated(treeId: string): void }) {
  const { t } = useTranslation('calltree');
  const { api } = useServices();
  const queryClient = useQueryClient();
  const [name, setName] = useState('');
  const [source, setSource] = useState<'directory' | 'empty'>('directory');
  const [root, setRoot] = useState<User | null>(null);
  const [made, setMade] = useState<CreateCallTreeResponse | null>(null);
  const create = useMutation({
    // Building from the directory reads everyone under the chosen person: the spinner says so.
    meta: { overlay: 'spinner' },
    mutationFn: () =>
      api.calltree.createTree({
        name: name.trim(),
        source,
        ...(source === 'directory' && root ? { rootUserId: root.id } : {}),
      }),
    onSuccess: (result) => {
      void queryClient.invalidateQueries({ queryKey: callTreeKeys.trees() });
      if (result.unplaced.length) setMade(result);
      else onCreated(result.tree.id);
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (name.trim()) create.mutate();
  };
  if (made) {
    return (
      <Dialog
        open
        onClose={() => onCreated(made.tree.id)}
        fullWidth
        maxWidth="sm"
        aria-labelledby="new-tree-title"
      >
        <DialogTitle id="new-tree-title">
          {t('tree.built', { name: made.tree.name, count: made.tree.memberCount })}
        </DialogTitle>
        <DialogContent>
          <UnplacedList people={made.unplaced} />
        </DialogContent>
        <DialogActions>
          <Button variant="contained" onClick={() => onCreated(made.tree.id)}>
            {t('tree.open')}
          </Button>
        </DialogActions>
      </Dialog>
    );
  }
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="sm" aria-labelledby="new-tree-title">
      <form onSubmit={submit} noValidate>
        <DialogTitle id="new-tree-title">{t('tree.new')}</DialogTitle>
        <DialogContent>
          <Stack sx={{ gap: 2, pt: 1 }}>
            <TextField
              label={t('tree.name')}
              value={name}
              onChange={(e) => setName(e.target.value)}
              required
              size="small"
              slotProps={{ htmlInput: { maxLength: MAX_CALL_TREE_NAME_LENGTH } }}
            />
            <RadioGroup value={source} onChange={(e) => setSource(e.target.value as 'directory' | 'empty')}>
              <FormControlLabel value="directory" control={<Radio />} label={t('tree.fromDirectory')} />
              <FormControlLabel value="empty" control={<Radio />} label={t('tree.empty')} />
            </RadioGroup>
            {source === 'directory' && (
              <>
                <PersonSearch label={t('tree.root')} value={root} onChange={setRoot} />
                <Typography variant="body2" color="text.secondary">
                  {t('tree.rootHelp')}
                </Typography>
              </>
            )}
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>{t('common:dialogs.cancel')}</Button>
          <Button type="submit" variant="contained" disabled={!name.trim() || create.isPending}>
            {t('tree.create')}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
