import { z } from 'zod';
import { Announcement } from './announcements.ts';
import { CommentAbilities, PostAbilities } from './contentAbilities.ts';
import { MAX_COMMENT_LENGTH, MAX_POST_LENGTH, MAX_REACTION_EMOJI_LENGTH } from './limits.ts';
import { ClientId, PageQuery, Person, page } from './topics.ts';

export { CommentAbilities, PostAbilities } from './contentAbilities.ts';
export {
  MAX_COMMENT_LENGTH,
  MAX_DISTINCT_REACTIONS,
  MAX_POST_LENGTH,
  MAX_REACTION_EMOJI_LENGTH,
  REACTION_EMOJIS,
} from './limits.ts';

// One fully-qualified emoji of Unicode's recommended set (RGI): skin tones, flags, keycaps and ZWJ
// sequences included, text and two emojis not. Kept out of limits.ts: the web app never validates it.
// The `v` flag (properties of strings, ES2024) is newer than the ES2023 target that tsc checks a
// regular expression literal against: built from strings. Node 22.13+ has it.
const UNICODE_SETS: string = 'v';
const SINGLE_EMOJI = new RegExp('^\\p{RGI_Emoji}$', UNICODE_SETS);

/** One emoji, as the full picker gives it (the quick reactions are some of them). */
export const ReactionEmoji = z
  .string()
  .max(MAX_REACTION_EMOJI_LENGTH)
  .refine((value) => SINGLE_EMOJI.test(value), {
    message: 'must be one emoji (pick it from the emoji picker), not text or several emojis',
  });
export type ReactionEmoji = z.infer<typeof ReactionEmoji>;

/** The reactions with one emoji on a post or comment. */
export const ReactionSummary = z.object({
  /** The emoji. */
  emoji: ReactionEmoji,
  /** How many people reacted with it. */
  count: z.number().int(),
  /** Who reacted with it, earliest first. */
  people: z.array(Person),
});
export type ReactionSummary = z.infer<typeof ReactionSummary>;

/** A file attached to a post. */
export const Attachment = z.object({
  /** Server id of the attachment. */
  id: z.string(),
  /** The file's name as uploaded (for the download), cleaned of path parts. */
  fileName: z.string(),
  /** The type taken from the file's content (not its name); `application/octet-stream` when unknown. */
  contentType: z.string(),
  /** Size in bytes. */
  sizeBytes: z.number().int(),
  /** `image` is shown inline with a preview; `file` is a download link. */
  kind: z.enum(['image', 'file']),
  /** API path of the content (`/api/attachments/:id`), fetched with the usual headers. */
  url: z.string(),
});
export type Attachment = z.infer<typeof Attachment>;

/** `POST /api/topics/:topicId/attachments` answer: the uploaded files, to reference in a new post. */
export const UploadAttachmentsResponse = z.object({
  /** The stored files, in the order sent. */
  attachments: z.array(Attachment),
});
export type UploadAttachmentsResponse = z.infer<typeof UploadAttachmentsResponse>;

/** The parts of a post that are the same for everyone who sees it (also the realtime payload). */
export const PostBase = z.object({
  /** Server id (UUIDv7). */
  id: z.string(),
  /** The client-made id it was created with. */
  clientId: z.string(),
  /** The topic. */
  topicId: z.string(),
  /** Position in the topic: 1 for the first post, growing. */
  number: z.number().int(),
  /** The author. */
  author: Person,
  /** Markdown text, as written (the browser renders it sanitised); empty when deleted. */
  body: z.string(),
  /** People mentioned in it. */
  mentions: z.array(Person),
  /** Attached files (none when deleted). */
  attachments: z.array(Attachment),
  /** Reactions by emoji, in the order each emoji was first given. */
  reactions: z.array(ReactionSummary),
  /** Number of comments that are not deleted. */
  commentCount: z.number().int(),
  /** When a topic owner pinned it, or null. */
  pinnedAt: z.string().nullable(),
  /** When the author last edited it ("edited"), or null. */
  editedAt: z.string().nullable(),
  /** When it was deleted (shown as a placeholder), or null. */
  deletedAt: z.string().nullable(),
  /** When it was written. */
  createdAt: z.string(),
  /** Its acknowledgement request when marked important (issue 17); null otherwise. */
  announcement: Announcement.nullable(),
});
export type PostBase = z.infer<typeof PostBase>;

/** A post as the caller sees it. */
export const Post = PostBase.extend({
  /** The caller's bell: `ring` = notify me of new comments on this post, `off` = don't. */
  bell: z.enum(['ring', 'off']),
  /** When the caller acknowledged it (an important post they were asked about); null: not (yet). */
  acknowledgedAt: z.string().nullable(),
  /** What the caller may do. */
  abilities: PostAbilities,
});
export type Post = z.infer<typeof Post>;

/**
 * `GET /api/topics/:topicId/posts` query: the newest page (nothing but `limit`), the page `around` a
 * post, the oldest page (`from=oldest`), or the page a `cursor` of an earlier answer points at (older
 * or newer: the cursor knows which).
 */
export const PostPageQuery = PageQuery.extend({
  /** A post's number: the page holding it, with some older and some newer posts around it. */
  around: z.coerce.number().int().min(1).max(Number.MAX_SAFE_INTEGER).optional(),
  /** `oldest`: the page that begins with the topic's first post. */
  from: z.enum(['oldest']).optional(),
}).refine((q) => [q.around, q.from, q.cursor].filter((v) => v !== undefined).length <= 1, {
  message: 'give at most one of around, from and cursor',
  path: ['around'],
});
export type PostPageQuery = z.infer<typeof PostPageQuery>;

/** `GET /api/topics/:topicId/posts` answer: newest first; the first page also lists the pinned posts. */
export const PostPage = page(Post).extend({
  /** Pass as `?cursor=` to get the newer posts after this page; null when it holds the newest post. */
  newerCursor: z.string().nullable(),
  /**
   * On a page asked without a cursor: the posts shown pinned at the top (also in `items`). First the
   * important posts the caller has not acknowledged (`announcement` set, `acknowledgedAt` null; not
   * their own), urgent first, then most recently marked; then the pinned posts (`pinnedAt` set), most
   * recently pinned first. Each post once.
   */
  pinned: z.array(Post),
});
export type PostPage = z.infer<typeof PostPage>;

/** Explicit mentions: user ids, besides the `@[Name](user:<id>)` tokens in the text. */
const Mentions = z.array(z.string().min(1).max(64)).max(50);

/** `POST /api/topics/:topicId/posts`. */
export const CreatePostRequest = z
  .object({
    /** Client-made id: a retry with the same id returns the same post; another body with it is a 409. */
    clientId: ClientId,
    /** Markdown text, up to 20,000 characters; may be empty when files are attached. */
    body: z.string().max(MAX_POST_LENGTH).default(''),
    /** People mentioned, besides the `@[Name](user:<id>)` tokens found in the body. */
    mentions: Mentions.default([]),
    /** Ids of files uploaded to this topic by the caller and not yet in a post. */
    attachmentIds: z.array(z.string().min(1).max(64)).max(20).default([]),
  })
  .refine((v) => v.body.trim().length > 0 || v.attachmentIds.length > 0, {
    message: 'write some text or attach a file',
    path: ['body'],
  });
export type CreatePostRequest = z.infer<typeof CreatePostRequest>;

/** `PATCH /api/posts/:postId`: the author changes the text. */
export const UpdatePostRequest = z.object({
  /** The new Markdown text. */
  body: z.string().trim().min(1).max(MAX_POST_LENGTH),
  /** People mentioned, besides the tokens in the body. */
  mentions: Mentions.default([]),
});
export type UpdatePostRequest = z.infer<typeof UpdatePostRequest>;

/** An earlier version of a post (or comment): the text one of its edits replaced. */
export const PostRevision = z.object({
  /** The version's place in the post's history: 1 is the text first posted, growing with each edit. */
  number: z.number().int().min(1),
  /** The Markdown text of that version, as written (mentions as `@[Name](user:id)` tokens). */
  body: z.string(),
  /** Who wrote this version (the author, or whoever made the edit that produced it). */
  editor: Person,
  /** When this version was written: the post's creation for version 1, else the edit that made it. */
  writtenAt: z.string(),
  /** When the next edit replaced it. */
  replacedAt: z.string(),
});
export type PostRevision = z.infer<typeof PostRevision>;

/**
 * `GET /api/posts/:postId/revisions` and `GET /api/comments/:commentId/revisions` answer: the earlier
 * versions, newest first (the current text is the post or comment itself). Empty for one never
 * edited, and for a deleted one (its history goes with it).
 */
export const PostRevisionList = z.object({
  /** Earlier versions, newest first. */
  items: z.array(PostRevision),
});
export type PostRevisionList = z.infer<typeof PostRevisionList>;

/** `PUT /api/posts/:postId/pin`. */
export const PinRequest = z.object({
  /** true to pin, false to unpin. */
  pinned: z.boolean(),
});
export type PinRequest = z.infer<typeof PinRequest>;

/** `PUT /api/posts/:postId/bell`. */
export const BellRequest = z.object({
  /** `ring` to be notified of new comments on the post, `off` not to be. */
  bell: z.enum(['ring', 'off']),
});
export type BellRequest = z.infer<typeof BellRequest>;

/** `:postId` in a path. */
export const PostParams = z.object({
  /** The post's id. */
  postId: z.string().min(1).max(64),
});

/** The parts of a comment that are the same for everyone (also the realtime payload). */
export const CommentBase = z.object({
  /** Server id (UUIDv7). */
  id: z.string(),
  /** The client-made id it was created with. */
  clientId: z.string(),
  /** The post it replies to. */
  postId: z.string(),
  /** The post's topic. */
  topicId: z.string(),
  /** The author. */
  author: Person,
  /** Markdown text; empty when deleted. */
  body: z.string(),
  /** People mentioned in it. */
  mentions: z.array(Person),
  /** Reactions by emoji. */
  reactions: z.array(ReactionSummary),
  /** When the author last edited it, or null. */
  editedAt: z.string().nullable(),
  /** When it was deleted (a placeholder), or null. */
  deletedAt: z.string().nullable(),
  /** When it was written. */
  createdAt: z.string(),
});
export type CommentBase = z.infer<typeof CommentBase>;

/** A comment as the caller sees it. */
export const Comment = CommentBase.extend({
  /** What the caller may do. */
  abilities: CommentAbilities,
});
export type Comment = z.infer<typeof Comment>;

/** `GET /api/posts/:postId/comments` answer: newest first. */
export const CommentPage = page(Comment);
export type CommentPage = z.infer<typeof CommentPage>;

/** `POST /api/posts/:postId/comments`. */
export const CreateCommentRequest = z.object({
  /** Client-made id: a retry with the same id returns the same comment. */
  clientId: ClientId,
  /** Markdown text, 1 to 10,000 characters. */
  body: z.string().trim().min(1).max(MAX_COMMENT_LENGTH),
  /** People mentioned, besides the tokens in the body. */
  mentions: Mentions.default([]),
});
export type CreateCommentRequest = z.infer<typeof CreateCommentRequest>;

/** `PATCH /api/comments/:commentId`. */
export const UpdateCommentRequest = z.object({
  /** The new Markdown text. */
  body: z.string().trim().min(1).max(MAX_COMMENT_LENGTH),
  /** People mentioned, besides the tokens in the body. */
  mentions: Mentions.default([]),
});
export type UpdateCommentRequest = z.infer<typeof UpdateCommentRequest>;

/** `:commentId` in a path. */
export const CommentParams = z.object({
  /** The comment's id. */
  commentId: z.string().min(1).max(64),
});

/** `POST /api/posts/:postId/reactions` and `POST /api/comments/:commentId/reactions`. */
export const AddReactionRequest = z.object({
  /** Client-made id: a retry with the same id returns the same reaction. */
  clientId: ClientId,
  /** The emoji. */
  emoji: ReactionEmoji,
});
export type AddReactionRequest = z.infer<typeof AddReactionRequest>;

/** `:emoji` in `DELETE .../reactions/:emoji` (URL-encoded). */
export const EmojiParams = z.object({
  /** The emoji to take back. */
  emoji: ReactionEmoji,
});

/** A reaction given (or still there after a retry). */
export const Reaction = z.object({
  /** Server id. */
  id: z.string(),
  /** The client-made id it was created with. */
  clientId: z.string(),
  /** The post reacted to (or whose comment was). */
  postId: z.string(),
  /** The comment reacted to, or null for the post itself. */
  commentId: z.string().nullable(),
  /** The emoji. */
  emoji: ReactionEmoji,
  /** Who reacted. */
  person: Person,
  /** When. */
  createdAt: z.string(),
});
export type Reaction = z.infer<typeof Reaction>;

/** `:attachmentId` in a path. */
export const AttachmentParams = z.object({
  /** The attachment's id. */
  attachmentId: z.string().min(1).max(64),
});
