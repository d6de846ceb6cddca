import type { Post } from '@btalk/contracts';
import { MAX_COMMENT_LENGTH } from '@btalk/contracts/constants';
import Send from '@mui/icons-material/Send';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { type CommentPages, upsertComment } from '../../../api/postCache.ts';
import { queryKeys } from '../../../api/queryKeys.ts';
import { StateMessage } from '../../../components/SignInPrompt.tsx';
import { useServices } from '../../../services.tsx';
import { CommentItem } from './CommentItem.tsx';
import { useDraft } from './mentions/drafts.ts';
import { MentionInput } from './mentions/MentionInput.tsx';
import { EMPTY_DRAFT, type MentionDraft, mentionIds, toMarkup } from './mentions/mentionText.ts';
import { useCommentJump } from './useCommentJump.ts';
import { retryLostAnswer } from './usePostActions.ts';

/**
 * Writes a comment, with `@` mentions shown as names and a draft per post and person kept until
 * sent; the client id is kept until the comment is saved, so a retry cannot double it.
 */
function CommentComposer({ post, myId }: { post: Post; myId: string | undefined }) {
  const { t } = useTranslation('topic');
  const { api } = useServices();
  const queryClient = useQueryClient();
  const [draft, setDraft] = useDraft(myId, `comments:${post.id}`);
  const clientId = useRef<string | null>(null);
  const send = useMutation({
    retry: retryLostAnswer,
    mutationFn: (sent: MentionDraft) => {
      clientId.current ??= crypto.randomUUID();
      return api.posts.comment(post.id, {
        clientId: clientId.current,
        body: toMarkup(sent),
        mentions: mentionIds(sent),
      });
    },
    onSuccess: (comment) => {
      clientId.current = null;
      setDraft(EMPTY_DRAFT);
      upsertComment(queryClient, comment);
    },
  });
  const submit = () => {
    if (draft.text.trim() && !send.isPending) send.mutate(draft);
  };
  return (
    <Box sx={{ display: 'flex', gap: 1, alignItems: 'flex-end' }}>
      <MentionInput
        label={t('comments.write')}
        draft={draft}
        onDraftChange={(next) => {
          setDraft(next);
          clientId.current = null;
        }}
        onEnter={submit}
        maxLength={MAX_COMMENT_LENGTH}
        maxRows={6}
      />
      <IconButton
        color="primary"
        aria-label={t('comments.send')}
        onClick={submit}
        disabled={!draft.text.trim() || send.isPending}
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
      {post.abilities.comment && <CommentComposer post={post} myId={myId} />}
    </Box>
  );
}
