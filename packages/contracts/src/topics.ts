import { z } from 'zod';
import { CommentAbilities, PostAbilities } from './contentAbilities.ts';
import { MAX_SEARCH_LENGTH, MAX_TOPIC_DESCRIPTION_LENGTH, MAX_TOPIC_TITLE_LENGTH } from './limits.ts';
import { User } from './users.ts';

/** A client-made id that makes a create safe to retry: the same id twice gives the same record. */
export const ClientId = z
  .string()
  .min(8, { message: 'must be 8 to 64 characters' })
  .max(64, { message: 'must be 8 to 64 characters' })
  .regex(/^[A-Za-z0-9_:-]+$/, { message: 'may hold only letters, digits, _ : and -' });
export type ClientId = z.infer<typeof ClientId>;

/** An opaque page cursor from a previous answer's `nextCursor`. */
export const Cursor = z.string().min(1).max(512);

/** `?cursor=&limit=` of every list. */
export const PageQuery = z.object({
  /** `nextCursor` of the previous page; absent for the first page. */
  cursor: Cursor.optional(),
  /** How many items to answer, 1 to 100 (default 30). */
  limit: z.coerce.number().int().min(1).max(100).default(30),
});
export type PageQuery = z.infer<typeof PageQuery>;

/** A page of a list: the items and the cursor of the next page (null at the end). */
export const page = <T extends z.ZodType>(item: T) =>
  z.object({
    /** The items of this page, in the list's order. */
    items: z.array(item),
    /** Pass as `?cursor=` to get the next page; null when there is none. */
    nextCursor: z.string().nullable(),
  });

/** A person as other people see them in topics: enough for a name, a photo and a link. */
export const Person = z.object({
  /** BTalk's id of the person. */
  id: z.string(),
  /** Name to show. */
  displayName: z.string(),
  /** E-mail address (the photo and the profile link derive from it). */
  email: z.string(),
  /** Department from the directory. */
  department: z.string().nullable(),
});
export type Person = z.infer<typeof Person>;

/**
 * Who may see a topic: everyone in the organisation, only its members, or (`direct`) a direct
 * conversation's 2 to 8 participants, whose people never change.
 */
export const TopicVisibility = z.enum(['organisation', 'members', 'direct']);
export type TopicVisibility = z.infer<typeof TopicVisibility>;

/** The visibilities a person chooses for a topic they make or edit (`direct` comes only from `POST /api/conversations`). */
export const ChosenTopicVisibility = z.enum(['organisation', 'members']);
export type ChosenTopicVisibility = z.infer<typeof ChosenTopicVisibility>;

/** A member's role in a topic: owners manage the topic, its members and pins. */
export const TopicRole = z.enum(['owner', 'member']);
export type TopicRole = z.infer<typeof TopicRole>;

/** A cover colour as `#rrggbb`. */
const CoverColor = z.string().regex(/^#[0-9a-fA-F]{6}$/, { message: 'must be a colour like #472F92' });
/** A cover emoji: one short grapheme sequence. */
const CoverEmoji = z.string().min(1).max(16);

/** What the caller may do with a topic, so the UI shows only what is allowed. */
export const TopicAbilities = z.object({
  /** Change title, description, visibility and cover. */
  edit: z.boolean(),
  /** Archive or unarchive. */
  archive: z.boolean(),
  /** Add and remove members and change their roles. */
  manageMembers: z.boolean(),
  /** Write posts (and comments and reactions). */
  post: z.boolean(),
  /** Pin posts. */
  pin: z.boolean(),
  /** Leave the topic (members who are not its last owner). */
  leave: z.boolean(),
  /** Follow or unfollow it (organisation-wide topics). */
  follow: z.boolean(),
  /**
   * Mark one's own posts here important, with acknowledgement requested: topic owners and admins, or
   * everyone who may post when the server's `ANNOUNCEMENT_AUTHORS` is `everyone`.
   */
  announce: z.boolean(),
  /** See who has and has not acknowledged any important post here (owners, admins); authors see their own. */
  announcementReports: z.boolean(),
  /**
   * What the caller may do with a post of their own in this topic that is not deleted. Posts that
   * arrive by realtime event carry no abilities: clients take this set (or `othersPost`) by author,
   * so the server's rules decide without a request per post. A deleted post allows nothing.
   */
  ownPost: PostAbilities,
  /** What the caller may do with someone else's post in this topic that is not deleted. */
  othersPost: PostAbilities,
  /** What the caller may do with a comment of their own, not deleted, under a post that is not deleted. */
  ownComment: CommentAbilities,
  /** What the caller may do with someone else's comment, not deleted, under a post that is not deleted. */
  othersComment: CommentAbilities,
});
export type TopicAbilities = z.infer<typeof TopicAbilities>;

/** The parts of a topic that are the same for everyone who sees it. */
export const TopicBase = z.object({
  /** Server id of the topic (UUIDv7). */
  id: z.string(),
  /** Title, 1 to 200 characters. */
  title: z.string(),
  /** Description (Markdown text; may be empty). */
  description: z.string(),
  /** Who may see it. */
  visibility: TopicVisibility,
  /** Cover colour, `#rrggbb`, or null. */
  coverColor: z.string().nullable(),
  /** Cover emoji, or null. */
  coverEmoji: z.string().nullable(),
  /** Who created it. */
  creator: Person,
  /** When it was archived (read-only), or null. */
  archivedAt: z.string().nullable(),
  /** Number of members. */
  memberCount: z.number().int(),
  /** Number of posts ever written (the newest post's number). */
  postCount: z.number().int(),
  /** Time of the newest post, or of the topic's creation. */
  lastActivityAt: z.string(),
  /** Creation time. */
  createdAt: z.string(),
  /** Time of the last change to the topic itself. */
  updatedAt: z.string(),
  /**
   * A direct conversation's participants, by name (the caller among them); present only when the
   * visibility is `direct`. Its title is their names, derived when it is shown, never stored.
   */
  participants: z.array(Person).optional(),
});
export type TopicBase = z.infer<typeof TopicBase>;

/**
 * How much of a topic reaches a person outside the topic itself: `all` new posts, only `mentions`
 * of them (and comments on posts whose bell rings), or `muted` (only mentions of them).
 */
export const TopicNotificationLevel = z.enum(['all', 'mentions', 'muted']);
export type TopicNotificationLevel = z.infer<typeof TopicNotificationLevel>;

/** A topic as the caller sees it: the shared parts plus their own membership, reading and abilities. */
export const Topic = TopicBase.extend({
  /** The caller's role in the topic, or null when not a member. */
  myRole: TopicRole.nullable(),
  /** Whether the caller follows it (members of a members-only topic always do). */
  following: z.boolean(),
  /** How much of this topic notifies the caller (default `all` for members-only topics, `mentions` otherwise). */
  notificationLevel: TopicNotificationLevel,
  /** Posts by others after the caller's last-read marker, not deleted. */
  unreadCount: z.number().int(),
  /** Number of the last post the caller has read (0 when none): the "new since you last looked" divider. */
  lastReadNumber: z.number().int(),
  /** What the caller may do. */
  abilities: TopicAbilities,
});
export type Topic = z.infer<typeof Topic>;

/** `GET /api/topics` query. */
export const TopicListQuery = PageQuery.extend({
  /** `all`: every topic the caller may see; `mine`: those they are a member of or follow. */
  scope: z.enum(['all', 'mine']).default('all'),
  /** `true` lists only archived topics (newest archived first); `false` (default) only the others. */
  archived: z.enum(['true', 'false']).default('false'),
  /** Only topics whose title holds these characters (any case); empty or absent: every topic. */
  q: z.string().trim().max(100).optional(),
});
export type TopicListQuery = z.infer<typeof TopicListQuery>;

/** `GET /api/topics` answer: newest activity first (archived topics: newest archived first). */
export const TopicPage = page(Topic);
export type TopicPage = z.infer<typeof TopicPage>;

/** `POST /api/topics`. */
export const CreateTopicRequest = z.object({
  /** Optional client-made id: a retry with the same id returns the topic made the first time. */
  clientId: ClientId.optional(),
  /** Title, 1 to 200 characters. */
  title: z.string().trim().min(1).max(MAX_TOPIC_TITLE_LENGTH),
  /** Description, up to 4000 characters. */
  description: z.string().max(MAX_TOPIC_DESCRIPTION_LENGTH).default(''),
  /** Who may see it. */
  visibility: ChosenTopicVisibility,
  /** Cover colour, `#rrggbb`. */
  coverColor: CoverColor.nullable().optional(),
  /** Cover emoji. */
  coverEmoji: CoverEmoji.nullable().optional(),
  /** People to add as members besides the creator (who becomes an owner). */
  memberIds: z.array(z.string().min(1).max(64)).max(500).default([]),
});
export type CreateTopicRequest = z.infer<typeof CreateTopicRequest>;

/** `PATCH /api/topics/:topicId`: only the fields sent change. */
export const UpdateTopicRequest = z
  .object({
    /** New title. */
    title: z.string().trim().min(1).max(MAX_TOPIC_TITLE_LENGTH),
    /** New description. */
    description: z.string().max(MAX_TOPIC_DESCRIPTION_LENGTH),
    /** New visibility. */
    visibility: ChosenTopicVisibility,
    /** New cover colour, or null to remove it. */
    coverColor: CoverColor.nullable(),
    /** New cover emoji, or null to remove it. */
    coverEmoji: CoverEmoji.nullable(),
  })
  .partial()
  .refine((v) => Object.keys(v).length > 0, { message: 'send at least one field to change' });
export type UpdateTopicRequest = z.infer<typeof UpdateTopicRequest>;

/** `:topicId` in a path. */
export const TopicParams = z.object({
  /** The topic's id. */
  topicId: z.string().min(1).max(64),
});

/** A member of a topic. */
export const TopicMember = z.object({
  /** The person. */
  person: Person,
  /** Their role in the topic. */
  role: TopicRole,
  /** When they were added. */
  addedAt: z.string(),
});
export type TopicMember = z.infer<typeof TopicMember>;

/** `GET /api/topics/:topicId/members` answer: owners first, then by name. */
export const TopicMemberPage = page(TopicMember);
export type TopicMemberPage = z.infer<typeof TopicMemberPage>;

/** `POST /api/topics/:topicId/members`: add people (already-members keep their role). */
export const AddMembersRequest = z.object({
  /** BTalk user ids of the people to add, as the people picker gives them. */
  userIds: z.array(z.string().min(1).max(64)).min(1).max(500),
  /** Their role (default member). */
  role: TopicRole.default('member'),
});
export type AddMembersRequest = z.infer<typeof AddMembersRequest>;

/** `PATCH /api/topics/:topicId/members/:userId`. */
export const UpdateMemberRequest = z.object({
  /** The new role. */
  role: TopicRole,
});
export type UpdateMemberRequest = z.infer<typeof UpdateMemberRequest>;

/** `:topicId/members/:userId` in a path. */
export const MemberParams = TopicParams.extend({
  /** The member's user id. */
  userId: z.string().min(1).max(64),
});

/** `PUT /api/topics/:topicId/follow`. */
export const FollowRequest = z.object({
  /** true to follow, false to stop. */
  following: z.boolean(),
});
export type FollowRequest = z.infer<typeof FollowRequest>;

/** `PUT /api/topics/:topicId/read`: the caller has read up to this post. */
export const MarkReadRequest = z.object({
  /** Number of the newest post the caller has seen; the marker never moves back. */
  lastReadNumber: z.number().int().min(0),
});
export type MarkReadRequest = z.infer<typeof MarkReadRequest>;

/** The caller's read state of a topic. */
export const ReadState = z.object({
  /** The topic. */
  topicId: z.string(),
  /** Number of the last post read. */
  lastReadNumber: z.number().int(),
  /** Posts by others after it. */
  unreadCount: z.number().int(),
});
export type ReadState = z.infer<typeof ReadState>;

/** A day (`2026-11-25`) or an instant with its offset (`2026-11-25T09:00:00+07:00`). */
const SearchDate = z.union([z.iso.date(), z.iso.datetime({ offset: true })], {
  error: 'must be a date like 2026-11-25 or a date-time with its offset like 2026-11-25T09:00:00+07:00',
});

/** `GET /api/search` query: words, filters, or both. Unknown parameters are refused (400). */
export const SearchQuery = z
  .strictObject({
    ...PageQuery.shape,
    /**
     * Words to find, up to 200 characters; every word must occur (Thai: any part of a word).
     * Punctuation around a word is dropped (`re: budget` finds "budget" and "re"); inside one it is
     * kept (`c:\temp`). May be empty when a filter is given.
     */
    q: z.string().trim().max(MAX_SEARCH_LENGTH).default(''),
    /** Only this topic (its id; it must be one the caller may see). */
    topic: z.string().min(1).max(64).optional(),
    /** Only what this person wrote (their user id): posts, comments and topics they created. */
    author: z.string().min(1).max(64).optional(),
    /** `true`: only posts with a file attached; `false`: only text without files. */
    hasFile: z.enum(['true', 'false'], { error: 'must be true or false' }).optional(),
    /** Only topics, posts or comments. */
    kind: z.enum(['topic', 'post', 'comment'], { error: 'must be topic, post or comment' }).optional(),
    /** Written at or after this: a date means its start (UTC), a date-time that instant. */
    from: SearchDate.optional(),
    /** Written at or before this: a date means up to its end (UTC), a date-time that instant. */
    to: SearchDate.optional(),
  })
  .superRefine((query, ctx) => {
    const filtered = [query.topic, query.author, query.hasFile, query.kind, query.from, query.to].some(
      (f) => f !== undefined,
    );
    if (query.q === '' && !filtered) {
      ctx.addIssue({ code: 'custom', path: ['q'], message: 'type words to find, or choose a filter' });
    }
  });
export type SearchQuery = z.infer<typeof SearchQuery>;

/** Where a match is in a snippet: UTF-16 offsets (JavaScript string indexes), end excluded. */
export const SearchHighlight = z.object({
  /** First character of the match. */
  start: z.number().int().min(0),
  /** Just after its last character. */
  end: z.number().int().min(0),
});
export type SearchHighlight = z.infer<typeof SearchHighlight>;

/** One search hit: a topic, a post or a comment, in a topic the caller may see. */
export const SearchResult = z.object({
  /** What was found. */
  kind: z.enum(['topic', 'post', 'comment']),
  /** The topic (of the post or comment). */
  topicId: z.string(),
  /** Title of that topic. */
  topicTitle: z.string(),
  /** Whether that topic is archived (still found; read-only, restored by its owners). */
  topicArchived: z.boolean(),
  /** The post found, or the post of the comment found; null for a topic. */
  postId: z.string().nullable(),
  /** That post's number in its topic (`/topics/{topicId}#post-{postNumber}` opens it). */
  postNumber: z.number().int().nullable(),
  /** The comment found (`?comment={commentId}` opens it on its post); null otherwise. */
  commentId: z.string().nullable(),
  /** Who wrote it (for a topic: who created it). */
  author: Person.nullable(),
  /** Whether files are attached (posts). */
  hasFile: z.boolean(),
  /**
   * Up to 200 characters of plain text around the first match: Markdown marks, link targets and
   * ids removed, mentions as `@Name`; `…` where text was cut. Text, never HTML.
   */
  snippet: z.string(),
  /** Where the words of the query are in `snippet`, in order, not overlapping. */
  highlights: z.array(SearchHighlight),
  /** When the topic, post or comment was written. */
  createdAt: z.string(),
});
export type SearchResult = z.infer<typeof SearchResult>;

/** `GET /api/search` answer: newest first, with the filters as understood (for their labels). */
export const SearchPage = page(SearchResult).extend({
  /** The filters given, with what they name. */
  filters: z.object({
    /** The topic filter's topic. */
    topic: z.object({ id: z.string(), title: z.string() }).nullable(),
    /** The author filter's person. */
    author: Person.nullable(),
  }),
});
export type SearchPage = z.infer<typeof SearchPage>;

/** `GET /api/users` query: the people picker. */
export const UserSearchQuery = PageQuery.extend({
  /** Part of a name, e-mail or department (Thai or English); empty lists everyone. */
  search: z.string().trim().max(100).default(''),
});
export type UserSearchQuery = z.infer<typeof UserSearchQuery>;

/** `GET /api/users` answer: by name. */
export const UserPage = page(User);
export type UserPage = z.infer<typeof UserPage>;
