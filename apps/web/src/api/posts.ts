import type {
  Comment,
  CommentPage,
  CreateCommentRequest,
  CreatePostRequest,
  Post,
  PostPage,
  PostRevisionList,
  Reaction,
  ReactionEmoji,
} from '@btalk/contracts';
import type { ApiClient } from './client.ts';

const enc = encodeURIComponent;

/** Which page of a topic's posts to load (nothing: the newest); at most one of cursor, around, from. */
export interface PostPageAt {
  /** `nextCursor` (older) or `newerCursor` (newer) of a loaded page. */
  cursor?: string;
  /** A post's number: the page holding it. */
  around?: number;
  /** `oldest`: the page that begins with the first post. */
  from?: 'oldest';
  /** How many posts (default 30). */
  limit?: number;
}

/** Posts, their comments, reactions, pins and bells. */
export function postsApi(client: ApiClient) {
  return {
    /**
     * A page of a topic's posts, newest first: the newest page, the page around a post, the oldest
     * page, or where a cursor of an earlier page points; a page without a cursor has the pinned posts.
     */
    list: (topicId: string, { cursor, around, from, limit = 30 }: PostPageAt = {}) =>
      client.get<PostPage>(`/topics/${enc(topicId)}/posts`, { cursor, around, from, limit }),
    /** One post as the caller sees it. */
    get: (postId: string) => client.get<Post>(`/posts/${enc(postId)}`),
    /** Writes a post; `clientId` makes a retry answer the same post. */
    create: (topicId: string, body: CreatePostRequest) =>
      client.post<Post>(`/topics/${enc(topicId)}/posts`, body),
    /** A post's earlier versions, newest first (its history). */
    revisions: (postId: string) => client.get<PostRevisionList>(`/posts/${enc(postId)}/revisions`),
    /** The author changes the text. */
    update: (postId: string, body: string) => client.patch<Post>(`/posts/${enc(postId)}`, { body }),
    /** Deletes a post (a placeholder stays). */
    remove: (postId: string) => client.delete<Post>(`/posts/${enc(postId)}`),
    /** Pins or unpins a post (topic owners). */
    pin: (postId: string, pinned: boolean) =>
      client.request<Post>('put', `/posts/${enc(postId)}/pin`, { body: { pinned } }),
    /** Sets the caller's bell on a post. */
    bell: (postId: string, bell: 'ring' | 'off') =>
      client.request<Post>('put', `/posts/${enc(postId)}/bell`, { body: { bell } }),
    /** Reacts to a post. */
    react: (postId: string, emoji: ReactionEmoji, clientId: string) =>
      client.post<Reaction>(`/posts/${enc(postId)}/reactions`, { emoji, clientId }),
    /** Takes a reaction back. */
    unreact: (postId: string, emoji: ReactionEmoji) =>
      client.delete<unknown>(`/posts/${enc(postId)}/reactions/${enc(emoji)}`),
    /** A page of a post's comments, newest first. */
    comments: (postId: string, cursor?: string) =>
      client.get<CommentPage>(`/posts/${enc(postId)}/comments`, { cursor, limit: 50 }),
    /** Writes a comment; `clientId` makes a retry answer the same comment. */
    comment: (postId: string, body: CreateCommentRequest) =>
      client.post<Comment>(`/posts/${enc(postId)}/comments`, body),
    /** The author changes a comment. */
    updateComment: (commentId: string, body: string) =>
      client.patch<Comment>(`/comments/${enc(commentId)}`, { body }),
    /** Deletes a comment. */
    /** A comment's earlier versions, newest first (its history). */
    commentRevisions: (commentId: string) =>
      client.get<PostRevisionList>(`/comments/${enc(commentId)}/revisions`),
    removeComment: (commentId: string) => client.delete<Comment>(`/comments/${enc(commentId)}`),
    /** Reacts to a comment. */
    reactToComment: (commentId: string, emoji: ReactionEmoji, clientId: string) =>
      client.post<Reaction>(`/comments/${enc(commentId)}/reactions`, { emoji, clientId }),
    /** Takes a reaction to a comment back. */
    unreactToComment: (commentId: string, emoji: ReactionEmoji) =>
      client.delete<unknown>(`/comments/${enc(commentId)}/reactions/${enc(emoji)}`),
  };
}
