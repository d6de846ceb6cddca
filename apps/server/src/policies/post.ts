import type { PostAbilities } from '@btalk/contracts';
import type { Kysely } from 'kysely';
import type { Database } from '../db/index.ts';
import type { CommentRow, PostRow } from '../db/schema.ts';
import { AppError } from '../http/errors.ts';
import { loadTopicAccess, type TopicAccess, topicAbilities, type Viewer } from './topic.ts';

/** A post the person may see, with its topic; 404 when the post is missing or its topic hidden. */
export async function requireVisiblePost(
  db: Kysely<Database>,
  viewer: Viewer,
  postId: string,
): Promise<{ access: TopicAccess; post: PostRow }> {
  const post = await db.selectFrom('posts').selectAll().where('id', '=', postId).executeTakeFirst();
  const access = post ? await loadTopicAccess(db, viewer, post.topic_id) : null;
  if (!post || !access) throw new AppError('notFound', 'No such post, or its topic is only for its members.');
  return { access, post };
}

/** A comment the person may see, with its post and topic; 404 otherwise. */
export async function requireVisibleComment(
  db: Kysely<Database>,
  viewer: Viewer,
  commentId: string,
): Promise<{ access: TopicAccess; post: PostRow; comment: CommentRow }> {
  const comment = await db.selectFrom('comments').selectAll().where('id', '=', commentId).executeTakeFirst();
  const post = comment
    ? await db.selectFrom('posts').selectAll().where('id', '=', comment.post_id).executeTakeFirst()
    : undefined;
  const access = post ? await loadTopicAccess(db, viewer, post.topic_id) : null;
  if (!comment || !post || !access) {
    throw new AppError('notFound', 'No such comment, or its topic is only for its members.');
  }
  return { access, post, comment };
}

/**
 * Who may do what with posts and comments, in a topic the person can see:
 * - the author edits (not once deleted, not in an archived topic);
 * - the author, a topic owner or an admin deletes;
 * - a topic owner pins;
 * - whoever may post in the topic comments and reacts (not on deleted posts).
 */
export function postAbilities(
  viewer: Viewer,
  access: TopicAccess,
  post: Pick<PostRow, 'author_id' | 'deleted_at'>,
): PostAbilities {
  const topic = topicAbilities(viewer, access);
  const alive = post.deleted_at === null;
  const author = post.author_id === viewer.id;
  const moderator = access.membership?.role === 'owner' || viewer.role === 'admin';
  const open = access.topic.archived_at === null;
  return {
    edit: alive && open && author,
    delete: alive && open && (author || moderator),
    pin: alive && topic.pin,
    comment: alive && topic.post,
    react: alive && topic.post,
  };
}

/** What a person may do with a comment, under a post they can see. */
export function commentAbilities(
  viewer: Viewer,
  access: TopicAccess,
  post: Pick<PostRow, 'deleted_at'>,
  comment: Pick<CommentRow, 'author_id' | 'deleted_at'>,
): { edit: boolean; delete: boolean; react: boolean } {
  const open = access.topic.archived_at === null && post.deleted_at === null;
  const alive = comment.deleted_at === null;
  const author = comment.author_id === viewer.id;
  const moderator = access.membership?.role === 'owner' || viewer.role === 'admin';
  return {
    edit: open && alive && author,
    delete: open && alive && (author || moderator),
    react: open && alive && topicAbilities(viewer, access).post,
  };
}
