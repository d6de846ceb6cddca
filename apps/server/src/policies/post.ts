import type { CommentAbilities, PostAbilities, TopicAbilities } from '@btalk/contracts';
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
  return postRules(viewer, access, { author: post.author_id === viewer.id, alive: post.deleted_at === null });
}

/** What a person may do with a comment, under a post they can see. */
export function commentAbilities(
  viewer: Viewer,
  access: TopicAccess,
  post: Pick<PostRow, 'deleted_at'>,
  comment: Pick<CommentRow, 'author_id' | 'deleted_at'>,
): CommentAbilities {
  return commentRules(viewer, access, {
    author: comment.author_id === viewer.id,
    alive: comment.deleted_at === null && post.deleted_at === null,
  });
}

/**
 * What the person may do with posts and comments of the topic that are not deleted, by whether they
 * wrote them (the topic's `ownPost`, `othersPost`, `ownComment`, `othersComment`): clients take these
 * for posts and comments that arrive by realtime event, so these rules decide there too.
 */
export function contentAbilities(
  viewer: Viewer,
  access: TopicAccess,
): Pick<TopicAbilities, 'ownPost' | 'othersPost' | 'ownComment' | 'othersComment'> {
  return {
    ownPost: postRules(viewer, access, { author: true, alive: true }),
    othersPost: postRules(viewer, access, { author: false, alive: true }),
    ownComment: commentRules(viewer, access, { author: true, alive: true }),
    othersComment: commentRules(viewer, access, { author: false, alive: true }),
  };
}

/** The facts of a post or comment the rules need: whether the person wrote it, whether it is there. */
interface Content {
  author: boolean;
  /** Not deleted (for a comment: nor its post). */
  alive: boolean;
}

function moderates(viewer: Viewer, access: TopicAccess): boolean {
  return access.membership?.role === 'owner' || viewer.role === 'admin';
}

function postRules(viewer: Viewer, access: TopicAccess, { author, alive }: Content): PostAbilities {
  const topic = topicAbilities(viewer, access);
  const open = access.topic.archived_at === null;
  return {
    edit: alive && open && author,
    delete: alive && open && (author || moderates(viewer, access)),
    pin: alive && topic.pin,
    comment: alive && topic.post,
    react: alive && topic.post,
  };
}

function commentRules(viewer: Viewer, access: TopicAccess, { author, alive }: Content): CommentAbilities {
  const open = access.topic.archived_at === null && alive;
  return {
    edit: open && author,
    delete: open && (author || moderates(viewer, access)),
    react: open && topicAbilities(viewer, access).post,
  };
}

/** A post, or a comment under it, in a topic the person can see. */
export type ContentTarget =
  | { access: TopicAccess; post: PostRow; comment?: undefined }
  | { access: TopicAccess; post: PostRow; comment: CommentRow };

/** Something a person does with a post or a comment. */
export type ContentAction = keyof PostAbilities | keyof CommentAbilities;

const REFUSED: Record<'post' | 'comment', Partial<Record<ContentAction, string>>> = {
  post: {
    edit: 'Only the author can change a post (not once deleted or archived).',
    delete: 'Only the author, the topic’s owners and admins can delete a post.',
    pin: 'Only the topic’s owners can pin posts.',
    comment: 'This post cannot take comments: it was deleted, or its topic is archived.',
    react: 'This cannot take reactions: it was deleted, or its topic is archived.',
  },
  comment: {
    edit: 'Only the author can change a comment.',
    delete: 'Only the author, the topic’s owners and admins can delete a comment.',
    react: 'This cannot take reactions: it was deleted, or its topic is archived.',
  },
};

/**
 * Throws 403, saying why, unless the person may do `action` with the post, or with the comment when
 * the target has one (see `postAbilities` and `commentAbilities`).
 */
export function authorize(viewer: Viewer, action: ContentAction, target: ContentTarget): void {
  const { access, post, comment } = target;
  const abilities: Partial<Record<ContentAction, boolean>> = comment
    ? commentAbilities(viewer, access, post, comment)
    : postAbilities(viewer, access, post);
  if (!abilities[action]) {
    throw new AppError('forbidden', REFUSED[comment ? 'comment' : 'post'][action] ?? 'You may not do this.');
  }
}
