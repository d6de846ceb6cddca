import type { Topic, User } from '@btalk/contracts';
import PersonRemove from '@mui/icons-material/PersonRemove';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import IconButton from '@mui/material/IconButton';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemAvatar from '@mui/material/ListItemAvatar';
import ListItemText from '@mui/material/ListItemText';
import Stack from '@mui/material/Stack';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { queryKeys } from '../../../api/queryKeys.ts';
import { PeoplePicker } from '../../../components/PeoplePicker.tsx';
import { PersonAvatar } from '../../../components/PersonAvatar.tsx';
import { StateMessage } from '../../../components/SignInPrompt.tsx';
import { useServices } from '../../../services.tsx';

/** A topic's members: owners first; owners add people through the picker and remove members. */
export function MembersDialog({ topic, onClose }: { topic: Topic; onClose: () => void }) {
  const { t } = useTranslation('topic');
  const { api } = useServices();
  const queryClient = useQueryClient();
  const [adding, setAdding] = useState<User[]>([]);
  const members = useQuery({
    queryKey: queryKeys.topics.members(topic.id),
    queryFn: () => api.topics.members(topic.id),
    meta: { silent: true },
  });
  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: queryKeys.topics.members(topic.id) });
    void queryClient.invalidateQueries({ queryKey: queryKeys.topics.detail(topic.id) });
  };
  const add = useMutation({
    mutationFn: () => api.topics.addMembers(topic.id, { userIds: adding.map((u) => u.id), role: 'member' }),
    onSuccess: () => {
      setAdding([]);
      refresh();
    },
  });
  const remove = useMutation({
    mutationFn: (userId: string) => api.topics.removeMember(topic.id, userId),
    onSuccess: refresh,
  });
  const manage = topic.abilities.manageMembers;
  const items = members.data?.items ?? [];
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="sm" aria-labelledby="members-title">
      <DialogTitle id="members-title">{t('members.title', { count: topic.memberCount })}</DialogTitle>
      <DialogContent>
        {manage && (
          <Stack direction="row" spacing={1} sx={{ mt: 1, mb: 2, alignItems: 'flex-start' }}>
            <div style={{ flexGrow: 1 }}>
              <PeoplePicker
                label={t('members.add')}
                value={adding}
                onChange={setAdding}
                exclude={items.map((m) => m.person.id)}
              />
            </div>
            <Button
              variant="contained"
              onClick={() => add.mutate()}
              disabled={adding.length === 0}
              loading={add.isPending}
              sx={{ mt: 1 }}
            >
              {t('members.addButton')}
            </Button>
          </Stack>
        )}
        {members.isPending && <StateMessage text={t('members.loading')} />}
        {members.isError && <StateMessage text={t('members.failed')} onRetry={() => members.refetch()} />}
        <List aria-label={t('members.list')}>
          {items.map((m) => (
            <ListItem
              key={m.person.id}
              secondaryAction={
                manage && m.role !== 'owner' ? (
                  <IconButton
                    edge="end"
                    aria-label={t('members.remove', { name: m.person.displayName })}
                    onClick={() => remove.mutate(m.person.id)}
                  >
                    <PersonRemove />
                  </IconButton>
                ) : null
              }
            >
              <ListItemAvatar>
                <PersonAvatar person={m.person} />
              </ListItemAvatar>
              <ListItemText
                primary={m.person.displayName}
                secondary={m.role === 'owner' ? t('members.owner') : m.person.department}
              />
            </ListItem>
          ))}
        </List>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('close')}</Button>
      </DialogActions>
    </Dialog>
  );
}
