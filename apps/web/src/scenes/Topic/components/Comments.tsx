import type { Post } from '@btalk/contracts';
import { MAX_COMMENT_LENGTH } from '@btalk/contracts/constants';
import Send from '@mui/icons-material/Send';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import TextField from '@mui/material/TextField';
import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { type KeyboardEvent, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type CommentPages, upsertComment } from '../../../api/postCache.ts';
import { queryKeys } from '../../../api/queryKeys.ts';
import { StateMessage } from '../../../components/SignInPrompt.tsx';
import { useServices } from '../../../services.tsx';
import { CommentItem } from './CommentItem.tsx';
import { useCommentJump } from './useCommentJump.ts';
import { retryLostAnswer } from './usePostActions.ts';

/** Writes a comment; the client id is kept until the comment is saved, so a retry cannot double it. */
function CommentComposer({ post }: { post: Post }) {
  const { t } = useTranslation('topic');
  const { api } = useServices();
  const queryClient = useQueryClient();
  const [text, setText] = useState('');
  const clientId = useRef<string | null>(null);
  const send = useMutation({
    retry: retryLostAnswer,
    mutationFn: (body: string) => {
      clientId.current ??= crypto.randomUUID();
      return api.posts.comment(post.id, { clientId: clientId.current, body, mentions: [] });
    },
    onSuccess: (comment) => {
      clientId.current = null;
      setText('');
      upsertComment(queryClient, comment);
    },
  });
  const submit = () => {
    if (text.trim() && !send.isPending) send.mutate(text);
  };
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      submit();
    }
  };
  return (
    <Box sx={{ display: 'flex', gap: 1, alignItems: 'flex-end' }}>
      <TextField
        size="small"
        fullWidth
        multiline
        maxRows={6}
        label={t('comments.write')}
        value={text}
        onChange={(e) => {
          setText(e.target.value);
          clientId.current = null;
        }}
        onKeyDown={onKeyDown}
        slotProps={{ htmlInput: { maxLength: MAX_COMMENT_LENGTH } }}
      />
      <IconButton
        color="primary"
        aria-label={t('comments.send')}
        onClick={submit}
        disabled={!text.trim() || send.isPending}
      >
        <Send />
      </IconButton>
    </Box>
  );
}

/**
 * The comments of a post (one level), oldest first, older ones on demand, and a comment box. A linked
 * comment (`focusCommentId`) is loaded, scrolled to and marked.
 */
export function Comments({
  post,
  myId,
  focusCommentId,
}: {
  post: Post;
  myId: string | undefined;
  focusCommentId?: string;
}) {
  const { t } = useTranslation('topic');
  const { api } = useServices();
  const comments = useInfiniteQuery({
    queryKey: queryKeys.posts.comments(post.id),
    queryFn: ({ pageParam }) => api.posts.comments(post.id, pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    meta: { silent: true },
  });
  const data = comments.data as CommentPages | undefined;
  const items = (data?.pages ?? []).flatMap((p) => p.items).reverse();
  const focused = useCommentJump(focusCommentId, {
    items,
    loaded: comments.isSuccess,
    pages: data?.pages.length ?? 0,
    hasOlder: comments.hasNextPage,
    loadingOlder: comments.isFetchingNextPage,
    loadOlder: comments.fetchNextPage,
  });
  return (
    <Box
      component="section"
      aria-label={t('comments.label')}
      sx={{ mt: 1, pl: { xs: 1, sm: 2 }, borderLeft: 2, borderColor: 'divider' }}
    >
      {comments.hasNextPage && (
        <Button size="small" onClick={() => comments.fetchNextPage()} loading={comments.isFetchingNextPage}>
          {t('comments.older')}
        </Button>
      )}
      {comments.isPending && <StateMessage text={t('comments.loading')} />}
      {comments.isError && <StateMessage text={t('comments.failed')} onRetry={() => comments.refetch()} />}
      {comments.isSuccess && items.length === 0 && <StateMessage text={t('comments.empty')} />}
      {items.length > 0 && (
        <Box component="ul" sx={{ listStyle: 'none', p: 0, m: 0 }}>
          {items.map((c) => (
            <CommentItem
              key={c.id}
              comment={c}
              myId={myId}
              highlighted={focused && c.id === focusCommentId}
            />
          ))}
        </Box>
      )}
      {post.abilities.comment && <CommentComposer post={post} />}
    </Box>
  );
}
