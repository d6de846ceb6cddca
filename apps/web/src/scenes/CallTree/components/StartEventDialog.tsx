import type { CallEventKind, CallEventOption, CallTreeSummary } from '@btalk/contracts';
import {
  DEFAULT_ESCALATION_DELAY_MINUTES,
  MAX_CALL_EVENT_MESSAGE_LENGTH,
  MAX_CALL_EVENT_TITLE_LENGTH,
  MAX_ESCALATION_DELAY_MINUTES,
  MIN_ESCALATION_DELAY_MINUTES,
} from '@btalk/contracts/constants';
import Autocomplete from '@mui/material/Autocomplete';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormLabel from '@mui/material/FormLabel';
import MenuItem from '@mui/material/MenuItem';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { callTreeKeys } from '../../../api/queryKeys.ts';
import { useServices } from '../../../services.tsx';
import { branchSizes } from './branchSizes.ts';
import { OptionsEditor } from './OptionsEditor.tsx';

/** Start an event: tree or a branch of it, title, message, drill or real, answer options, escalation delay. */
export function StartEventDialog({ trees, onClose }: { trees: CallTreeSummary[]; onClose(): void }) {
  const { t } = useTranslation('calltree');
  const { api } = useServices();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const phone = useMediaQuery((theme) => theme.breakpoints.down('sm'));
  const [treeId, setTreeId] = useState(trees[0]?.id ?? '');
  const [branchRootId, setBranchRootId] = useState<string | null>(null);
  const [title, setTitle] = useState('');
  const [message, setMessage] = useState('');
  const [kind, setKind] = useState<CallEventKind>('drill');
  const [delay, setDelay] = useState(String(DEFAULT_ESCALATION_DELAY_MINUTES));
  // The default labels are the server's own ("Safe", "Need help"); screens show them in the reader's language.
  const [options, setOptions] = useState<CallEventOption[]>([
    { id: 'safe', label: 'Safe', needsHelp: false },
    { id: 'need_help', label: 'Need help', needsHelp: true },
  ]);
  const tree = useQuery({
    queryKey: callTreeKeys.tree(treeId),
    queryFn: () => api.calltree.tree(treeId),
    enabled: !!treeId,
  });
  const branches = useMemo(() => {
    const members = tree.data?.members ?? [];
    const sizes = branchSizes(members);
    return members
      .filter((m) => (sizes.get(m.id) ?? 0) > 1)
      .map((m) => ({
        id: m.id,
        label: t('start.branchOption', { name: m.displayName, count: sizes.get(m.id) }),
      }));
  }, [tree.data, t]);
  const start = useMutation({
    // Starting snapshots the tree and notifies everyone in it.
    meta: { overlay: 'spinner' },
    mutationFn: () =>
      api.calltree.startEvent(treeId, {
        title: title.trim(),
        message: message.trim(),
        kind,
        options: options.map((o) => ({ ...o, label: o.label.trim() })),
        escalationDelayMinutes: Number(delay),
        ...(branchRootId ? { branchRootId } : {}),
      }),
    onSuccess: (event) => {
      void queryClient.invalidateQueries({ queryKey: callTreeKeys.all });
      onClose();
      navigate(`/calltree/event/${event.id}`);
    },
  });
  const delayOk =
    /^\d+$/.test(delay) &&
    Number(delay) >= MIN_ESCALATION_DELAY_MINUTES &&
    Number(delay) <= MAX_ESCALATION_DELAY_MINUTES;
  const optionsOk =
    options.every((o) => o.label.trim()) &&
    options.some((o) => o.needsHelp) &&
    options.some((o) => !o.needsHelp);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (title.trim() && message.trim() && delayOk && optionsOk) start.mutate();
  };
  const branchValue = branches.find((b) => b.id === branchRootId) ?? null;
  return (
    <Dialog
      open
      onClose={onClose}
      fullScreen={phone}
      fullWidth
      maxWidth="sm"
      aria-labelledby="start-event-title"
    >
      <form onSubmit={submit} noValidate>
        <DialogTitle id="start-event-title">{t('start.title')}</DialogTitle>
        <DialogContent>
          <Stack sx={{ gap: 2, pt: 1 }}>
            <TextField
              select
              label={t('start.tree')}
              value={treeId}
              onChange={(e) => {
                setTreeId(e.target.value);
                setBranchRootId(null);
              }}
              size="small"
            >
              {trees.map((tr) => (
                <MenuItem key={tr.id} value={tr.id}>
                  {t('start.treeOption', { name: tr.name, count: tr.memberCount })}
                </MenuItem>
              ))}
            </TextField>
            <Autocomplete
              options={branches}
              value={branchValue}
              onChange={(_e, b) => setBranchRootId(b?.id ?? null)}
              isOptionEqualToValue={(a, b) => a.id === b.id}
              loading={tree.isLoading}
              renderInput={(params) => (
                <TextField
                  {...params}
                  size="small"
                  label={t('start.branch')}
                  helperText={t('start.branchHelp')}
                />
              )}
            />
            <TextField
              label={t('start.eventTitle')}
              value={title}
              onChange={(e) => setTitle(e.target.value)}
              required
              size="small"
              slotProps={{ htmlInput: { maxLength: MAX_CALL_EVENT_TITLE_LENGTH } }}
              error={start.isIdle ? false : !title.trim()}
            />
            <TextField
              label={t('start.message')}
              value={message}
              onChange={(e) => setMessage(e.target.value)}
              required
              multiline
              minRows={3}
              slotProps={{ htmlInput: { maxLength: MAX_CALL_EVENT_MESSAGE_LENGTH } }}
            />
            <div>
              <FormLabel id="start-kind">{t('start.kind')}</FormLabel>
              <RadioGroup
                row
                aria-labelledby="start-kind"
                value={kind}
                onChange={(e) => setKind(e.target.value as CallEventKind)}
              >
                <FormControlLabel value="drill" control={<Radio />} label={t('kind.drill')} />
                <FormControlLabel value="real" control={<Radio />} label={t('kind.real')} />
              </RadioGroup>
            </div>
            <OptionsEditor options={options} onChange={setOptions} />
            <TextField
              label={t('start.delay')}
              value={delay}
              onChange={(e) => setDelay(e.target.value)}
              size="small"
              type="number"
              error={!delayOk}
              helperText={delayOk ? t('start.delayHelp') : t('start.delayInvalid')}
              slotProps={{
                htmlInput: {
                  min: MIN_ESCALATION_DELAY_MINUTES,
                  max: MAX_ESCALATION_DELAY_MINUTES,
                  inputMode: 'numeric',
                },
              }}
            />
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>{t('common:dialogs.cancel')}</Button>
          <Button
            type="submit"
            variant="contained"
            disabled={
              start.isPending || !treeId || !title.trim() || !message.trim() || !delayOk || !optionsOk
            }
          >
            {t('start.submit')}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
