import type { ChosenTopicVisibility, Topic } from '@btalk/contracts';
import { MAX_TOPIC_DESCRIPTION_LENGTH, MAX_TOPIC_TITLE_LENGTH } from '@btalk/contracts/constants';
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
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { queryKeys } from '../../../api/queryKeys.ts';
import { useServices } from '../../../services.tsx';

/** Edits a topic's title, description and visibility. */
export function EditTopicDialog({ topic, onClose }: { topic: Topic; onClose: () => void }) {
  const { t } = useTranslation('topic');
  const { api } = useServices();
  const queryClient = useQueryClient();
  const [title, setTitle] = useState(topic.title);
  const [description, setDescription] = useState(topic.description);
  // Direct conversations are never edited (no `edit` ability): only the two chosen visibilities here.
  const [visibility, setVisibility] = useState<ChosenTopicVisibility>(
    topic.visibility === 'organisation' ? 'organisation' : 'members',
  );
  const save = useMutation({
    mutationFn: () => api.topics.update(topic.id, { title: title.trim(), description, visibility }),
    onSuccess: (updated) => {
      queryClient.setQueryData(queryKeys.topics.detail(topic.id), updated);
      void queryClient.invalidateQueries({ queryKey: queryKeys.topics.lists() });
      onClose();
    },
  });
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="sm" aria-labelledby="edit-topic-title">
      <DialogTitle id="edit-topic-title">{t('menu.edit')}</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ mt: 1 }}>
          <TextField
            label={t('fields.title')}
            value={title}
            onChange={(e) => setTitle(e.target.value)}
            required
            slotProps={{ htmlInput: { maxLength: MAX_TOPIC_TITLE_LENGTH } }}
          />
          <TextField
            label={t('fields.description')}
            value={description}
            onChange={(e) => setDescription(e.target.value)}
            multiline
            minRows={3}
            slotProps={{ htmlInput: { maxLength: MAX_TOPIC_DESCRIPTION_LENGTH } }}
          />
          <RadioGroup
            aria-label={t('fields.visibility')}
            value={visibility}
            onChange={(e) => setVisibility(e.target.value as ChosenTopicVisibility)}
          >
            <FormControlLabel value="organisation" control={<Radio />} label={t('visibility.organisation')} />
            <FormControlLabel value="members" control={<Radio />} label={t('visibility.members')} />
          </RadioGroup>
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('cancel')}</Button>
        <Button
          variant="contained"
          onClick={() => save.mutate()}
          loading={save.isPending}
          disabled={title.trim() === ''}
        >
          {t('edit.save')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
