import type { Person } from '@btalk/contracts';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { queryKeys } from '../../../api/queryKeys.ts';
import { Markdown } from '../../../components/Markdown.tsx';
import { StateMessage } from '../../../components/SignInPrompt.tsx';
import { fullTime } from '../../../components/time.ts';
import { useServices } from '../../../services.tsx';

/** One version of the post: its heading, who wrote it and when, and its text drawn as the post is. */
function Version({
  heading,
  editor,
  at,
  body,
}: {
  heading: string;
  editor: Person;
  at: string;
  body: string;
}) {
  const { t } = useTranslation('topic');
  const id = useId();
  return (
    <Box component="li" aria-labelledby={id} sx={{ py: 1.5, borderBottom: 1, borderColor: 'divider' }}>
      <Typography id={id} component="h3" variant="subtitle2">
        {heading}
      </Typography>
      <Typography variant="caption" color="text.secondary" component="p" sx={{ mb: 0.5 }}>
        {t('history.byAt', { name: editor.displayName, time: fullTime(at) })}
      </Typography>
      <Markdown text={body} />
    </Box>
  );
}

/** What the history dialog shows the versions of: a post or a comment, as it is now. */
export interface HistorySubject {
  kind: 'post' | 'comment';
  id: string;
  author: Person;
  body: string;
  editedAt: string | null;
  createdAt: string;
}

/**
 * The "edited" dialog: a post's or comment's versions, newest first (the current text, then each text
 * an edit replaced), with who wrote each and when; Markdown and mentions drawn as in the post.
 */
export default function PostHistoryDialog({ post, onClose }: { post: HistorySubject; onClose: () => void }) {
  const { t } = useTranslation('topic');
  const { api } = useServices();
  const titleId = useId();
  const revisions = useQuery({
    queryKey: queryKeys.posts.revisions(post.id, post.kind),
    queryFn: () =>
      post.kind === 'post' ? api.posts.revisions(post.id) : api.posts.commentRevisions(post.id),
    meta: { silent: true },
  });
  const items = revisions.data?.items ?? [];
  return (
    <Dialog open onClose={onClose} aria-labelledby={titleId} fullWidth maxWidth="sm" scroll="paper">
      <DialogTitle id={titleId}>{t('history.title')}</DialogTitle>
      <DialogContent dividers>
        <Box component="ol" aria-label={t('history.list')} sx={{ m: 0, p: 0, listStyle: 'none' }}>
          <Version
            heading={t('history.current')}
            editor={post.author}
            at={post.editedAt ?? post.createdAt}
            body={post.body}
          />
          {items.map((r) => (
            <Version
              key={r.number}
              heading={t('history.version', { number: r.number })}
              editor={r.editor}
              at={r.writtenAt}
              body={r.body}
            />
          ))}
        </Box>
        {revisions.isPending && <StateMessage text={t('history.loading')} />}
        {revisions.isError && <StateMessage text={t('history.failed')} onRetry={() => revisions.refetch()} />}
        {revisions.isSuccess && items.length === 0 && (
          <Typography color="text.secondary" sx={{ pt: 1.5 }}>
            {t('history.none')}
          </Typography>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('history.close')}</Button>
      </DialogActions>
    </Dialog>
  );
}
