import type { Comment, Post, ReactionEmoji } from '@btalk/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { patchPost, upsertComment, upsertPost } from '../../../api/postCache.ts';
import { queryKeys } from '../../../api/queryKeys.ts';
import { useServices } from '../../../services.tsx';

/** Retries a create only when the answer was lost (no envelope): its client id makes that safe. */
export function retryLostAnswer(failureCount: number, error: unknown): boolean {
  const answered = typeof error === 'object' && error !== null && ('code' in error || 'status' in error);
  return !answered && failureCount < 3;
}

/** The writes on one post: edit, delete, pin, bell, react; each updates the cached post. */
export function usePostActions(post: Post) {
  const { api } = useServices();
  const queryClient = useQueryClient();
  const put = (p: Post) => upsertPost(queryClient, p);
  const refetch = () => queryClient.invalidateQueries({ queryKey: queryKeys.posts.list(post.topicId) });
  return {
    edit: useMutation({ mutationFn: (body: string) => api.posts.update(post.id, body), onSuccess: put }),
    remove: useMutation({ mutationFn: () => api.posts.remove(post.id), onSuccess: put }),
    pin: useMutation({ mutationFn: (pinned: boolean) => api.posts.pin(post.id, pinned), onSuccess: put }),
    bell: useMutation({
      mutationFn: (bell: 'ring' | 'off') => api.posts.bell(post.id, bell),
      onSuccess: put,
    }),
    react: useMutation({
      retry: retryLostAnswer,
      mutationFn: ({ emoji, clientId, mine }: { emoji: ReactionEmoji; clientId: string; mine: boolean }) =>
        mine ? api.posts.unreact(post.id, emoji) : api.posts.react(post.id, emoji, clientId),
      // The answer is the reaction, not the post: reload the post's summary with who reacted.
      onSuccess: () => api.posts.get(post.id).then(put, refetch),
    }),
  };
}

/** The writes on one comment: edit, delete, react. */
export function useCommentActions(comment: Comment) {
  const { api } = useServices();
  const queryClient = useQueryClient();
  const put = (c: Comment) => upsertComment(queryClient, c);
  const refetch = () => queryClient.invalidateQueries({ queryKey: queryKeys.posts.comments(comment.postId) });
  return {
    edit: useMutation({
      mutationFn: (body: string) => api.posts.updateComment(comment.id, body),
      onSuccess: put,
    }),
    remove: useMutation({
      mutationFn: () => api.posts.removeComment(comment.id),
      onSuccess: (c) => {
        put(c);
        patchPost(queryClient, c.topicId, c.postId, (p) => ({
          ...p,
          commentCount: Math.max(0, p.commentCount - 1),
        }));
      },
    }),
    react: useMutation({
      retry: retryLostAnswer,
      mutationFn: ({ emoji, clientId, mine }: { emoji: ReactionEmoji; clientId: string; mine: boolean }) =>
        mine
          ? api.posts.unreactToComment(comment.id, emoji)
          : api.posts.reactToComment(comment.id, emoji, clientId),
      onSuccess: () => void refetch(),
    }),
  };
}
