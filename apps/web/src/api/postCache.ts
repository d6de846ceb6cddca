import type { Comment, CommentPage, Post, PostPage } from '@btalk/contracts';
import type { InfiniteData, QueryClient } from '@tanstack/react-query';
import type { PostPageAt } from './posts.ts';
import { queryKeys } from './queryKeys.ts';

/** The cached pages of a topic's posts (newest first, as the API answers them). */
export type PostPages = InfiniteData<PostPage, PostPageAt | undefined>;

/**
 * The cached page that was asked without a cursor (the newest, the oldest or the one around a post):
 * the one that carries the pinned posts. Pages loaded later, older or newer, come with a cursor.
 */
export function pinnedPageIndex(data: PostPages): number {
  return Math.max(
    0,
    data.pageParams.findIndex((at) => !at?.cursor),
  );
}
/** The cached pages of a post's comments (newest first). */
export type CommentPages = InfiniteData<CommentPage, string | undefined>;

function withPinned(pinned: Post[], post: Post): Post[] {
  const others = pinned.filter((p) => p.id !== post.id);
  return post.pinnedAt ? [post, ...others] : others;
}

/**
 * Puts a post into a topic's cached pages: replaces it where it is, or adds it as the newest when it
 * is new and the newest page is loaded. Writes from this tab and (later) realtime events both come through here, so a post that
 * arrives twice is shown once.
 */
export function upsertPost(queryClient: QueryClient, post: Post): void {
  queryClient.setQueryData<PostPages>(queryKeys.posts.list(post.topicId), (data) => {
    if (!data) return data;
    let found = false;
    const pinnedIndex = pinnedPageIndex(data);
    const pages = data.pages.map((page, index) => {
      const items = page.items.map((p) => {
        if (p.id !== post.id) return p;
        found = true;
        return post;
      });
      return { ...page, items, pinned: index === pinnedIndex ? withPinned(page.pinned, post) : page.pinned };
    });
    // A new post belongs after the newest one: only when that is loaded (a reader further back in a
    // long topic reaches it by paging newer), or the list would show a gap before it.
    if (!found && pages[0] && pages[0].newerCursor === null)
      pages[0] = { ...pages[0], items: [post, ...pages[0].items] };
    return { ...data, pages };
  });
}

/** Changes one cached post by id (e.g. its comment count); does nothing when it is not loaded. */
export function patchPost(
  queryClient: QueryClient,
  topicId: string,
  postId: string,
  change: (p: Post) => Post,
) {
  queryClient.setQueryData<PostPages>(queryKeys.posts.list(topicId), (data) => {
    if (!data) return data;
    const map = (p: Post) => (p.id === postId ? change(p) : p);
    return {
      ...data,
      pages: data.pages.map((page) => ({
        ...page,
        items: page.items.map(map),
        pinned: page.pinned.map(map),
      })),
    };
  });
}

/** Puts a comment into its post's cached comments (replacing it, or adding it as the newest). */
export function upsertComment(queryClient: QueryClient, comment: Comment): void {
  let added = false;
  queryClient.setQueryData<CommentPages>(queryKeys.posts.comments(comment.postId), (data) => {
    if (!data) return data;
    let found = false;
    const pages = data.pages.map((page) => ({
      ...page,
      items: page.items.map((c) => {
        if (c.id !== comment.id) return c;
        found = true;
        return comment;
      }),
    }));
    if (!found && pages[0]) {
      pages[0] = { ...pages[0], items: [comment, ...pages[0].items] };
      added = true;
    }
    return { ...data, pages };
  });
  if (added)
    patchPost(queryClient, comment.topicId, comment.postId, (p) => ({
      ...p,
      commentCount: p.commentCount + 1,
    }));
}
