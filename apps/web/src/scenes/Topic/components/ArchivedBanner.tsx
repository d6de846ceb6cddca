import type { Topic } from '@btalk/contracts';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Button from '@mui/material/Button';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { queryKeys } from '../../../api/queryKeys.ts';
import { useServices } from '../../../services.tsx';

/**
 * Says an archived topic is read-only; its owners (and admins: `abilities.archive`) restore it
 * here. Restoring puts it back on everyone's Home (the server's `topic.updated` event).
 */
export function ArchivedBanner({ topic }: { topic: Topic }) {
  const { t } = useTranslation('topic');
  const { api } = useServices();
  const queryClient = useQueryClient();
  const restore = useMutation({
    mutationFn: () => api.topics.archive(topic.id, false),
    onSuccess: (restored) => {
      queryClient.setQueryData(queryKeys.topics.detail(topic.id), restored);
      // Home's lists and the archive change; the posts and comments may take posts and reactions again.
      void queryClient.invalidateQueries({ queryKey: queryKeys.topics.lists() });
      void queryClient.invalidateQueries({ queryKey: queryKeys.posts.list(topic.id) });
      void queryClient.invalidateQueries({ queryKey: ['posts', 'comments'] });
    },
  });
  return (
    <Alert
      severity="info"
      // A state of the page, not an interruption: read in its turn, not announced at once.
      role="status"
      sx={{ borderRadius: 0 }}
      action={
        topic.abilities.archive ? (
          <Button color="inherit" size="small" onClick={() => restore.mutate()} disabled={restore.isPending}>
            {t('archivedBanner.restore')}
          </Button>
        ) : undefined
      }
    >
      <AlertTitle>{t('archivedBanner.title')}</AlertTitle>
      {t('archivedBanner.text')}
    </Alert>
  );
}
