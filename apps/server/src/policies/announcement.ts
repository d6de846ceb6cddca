import type { PostRow } from '../db/schema.ts';
import { AppError } from '../http/errors.ts';
import { isDirect, type TopicAccess, type TopicRules, topicAbilities, type Viewer } from './topic.ts';

/**
 * Who may do what with a post's acknowledgement request (issue 17), in a topic the person can see
 * (hidden posts are 404 before these rules: `requireVisiblePost`):
 * - mark (and change): the post's author, when they may announce in the topic (`TopicAbilities.announce`:
 *   owners and admins, or everyone who may post with ANNOUNCEMENT_AUTHORS=everyone); not on a deleted
 *   post, not in an archived topic, never in a direct conversation;
 * - unmark, report, people list, export, remind again: the author, the topic's owners and admins;
 * - acknowledge and say "seen": everyone who may read the post, but its author.
 * Readers other than those see only the counts.
 */
export type AnnouncementAction = 'mark' | 'unmark' | 'report' | 'acknowledge';

/** The post's facts the rules need. */
export type AnnouncedPost = Pick<PostRow, 'author_id' | 'deleted_at'>;

/** Whether the person may see who has and has not acknowledged the post (and remind them, unmark it). */
export function seesWho(viewer: Viewer, access: TopicAccess, post: AnnouncedPost): boolean {
  if (isDirect(access.topic)) return false;
  return post.author_id === viewer.id || access.membership?.role === 'owner' || viewer.role === 'admin';
}

/** Why the person may not do `action` with the post's request, or null when they may. */
export function refusal(
  viewer: Viewer,
  action: AnnouncementAction,
  access: TopicAccess,
  post: AnnouncedPost,
  rules: TopicRules,
): string | null {
  if (isDirect(access.topic)) return 'Posts are not marked important in a direct conversation.';
  switch (action) {
    case 'mark': {
      if (post.deleted_at !== null) return 'This post was deleted.';
      if (access.topic.archived_at !== null) {
        return 'This topic is archived: it is read-only until an owner unarchives it.';
      }
      if (post.author_id !== viewer.id) return 'Only the post’s author can mark it important.';
      if (!topicAbilities(viewer, access, rules).announce) {
        return 'Only the topic’s owners and admins can mark posts important here.';
      }
      return null;
    }
    case 'unmark':
    case 'report':
      return seesWho(viewer, access, post)
        ? null
        : 'Only the author, the topic’s owners and admins can see who has acknowledged an important post.';
    case 'acknowledge':
      return post.author_id === viewer.id ? 'You wrote this post: its readers acknowledge it.' : null;
  }
}

/** Throws 403 with the reason unless the person may do `action` with the post's request. */
export function authorize(
  viewer: Viewer,
  action: AnnouncementAction,
  target: { access: TopicAccess; post: AnnouncedPost },
  rules: TopicRules,
): void {
  const reason = refusal(viewer, action, target.access, target.post, rules);
  if (reason) throw new AppError('forbidden', reason);
}
