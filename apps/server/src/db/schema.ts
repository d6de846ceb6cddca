import type { ColumnType, Generated, Insertable, Selectable, Updateable } from 'kysely';

/**
 * Row types of every table, as the database stores them. Timestamps are ISO-8601 strings on both
 * SQLite and PostgreSQL (see db/index.ts for the PostgreSQL type parser).
 */
export interface UsersTable {
  /** UUIDv7. */
  id: string;
  /** The directory's issuer URL; with `subject` the key of the person (never the e-mail). */
  issuer: string;
  /** The directory's subject (Entra: object id). */
  subject: string;
  /** Entra tenant id, when the directory is Entra ID. */
  tenant_id: string | null;
  email: string;
  display_name: string;
  department: string | null;
  job_title: string | null;
  /** The directory subject of the person's manager, as the directory last said. */
  manager_subject: string | null;
  /** Phone number from the directory, shown to managers chasing non-responders; optional on insert. */
  phone: ColumnType<string | null, string | null | undefined, string | null>;
  /** Given name from the directory (Graph `givenName`, Latin script); optional on insert. */
  given_name: ColumnType<string | null, string | null | undefined, string | null>;
  /** Surname from the directory (Graph `surname`, Latin script); optional on insert. */
  surname: ColumnType<string | null, string | null | undefined, string | null>;
  locale: 'th' | 'en';
  role: 'admin' | 'member';
  /**
   * Who decided the role: `directory` (sign-in and directory sync give and take the admin role as
   * the directory's app role says) or `btalk` (an administrator in the People screen; sync keeps it).
   */
  role_source: ColumnType<RoleSource, RoleSource | undefined, RoleSource>;
  /** A disabled person cannot sign in and their sessions end. */
  disabled: Generated<number>;
  /**
   * Who disabled the person, null while enabled: `directory` (disabled or removed there; enabled
   * again when the directory lists them enabled) or `btalk` (an administrator; sync keeps it).
   */
  disabled_source: ColumnType<RoleSource | null, RoleSource | null | undefined, RoleSource | null>;
  /** Access tokens issued before this time are refused (sign-out everywhere, disabling). */
  tokens_valid_after: string | null;
  /** The newest terms version the person accepted; the terms gate compares it with the current one. */
  terms_accepted_version: number | null;
  created_at: string;
  updated_at: string;
}

/** Where a person's role or disabled state was decided: the directory, or BTalk's People screen. */
export type RoleSource = 'directory' | 'btalk';

/** A page view of the web app (analytics kept on our own server). */
export interface PageViewsTable {
  id: string;
  /** The route path, without query or hash. */
  path: string;
  locale: string | null;
  created_at: string;
}

/** The domain event log (see events/eventLog.ts). */
export interface EventsTable {
  /** Grows with every event; the order in which events happened. */
  seq: Generated<number>;
  /** Who may see it: `topic:<id>`, `user:<id>`, `callevent:<id>`. */
  room: string;
  /** The event's name from contracts' event map, e.g. `post.created`. */
  type: string;
  /** The event's data as JSON text. */
  payload: string;
  actor_id: string | null;
  created_at: string;
}

/** A published version of the terms of use (Thai and English). */
export interface TermsVersionsTable {
  /** 1 for the first version, one more for each publication. */
  version: number;
  title_th: string;
  /** Markdown. */
  body_th: string;
  title_en: string;
  /** Markdown. */
  body_en: string;
  published_at: string;
  /** The administrator who published it; null for the default version seeded on first start. */
  published_by: string | null;
}

/** One person's acceptance of one terms version (at most one per person and version). */
export interface TermsAcceptancesTable {
  id: string;
  user_id: string;
  version: number;
  /** The client the person accepted in. */
  client_kind: 'web' | 'teams';
  accepted_at: string;
}

/** An entry of the append-only audit log (see audit/audit.ts). */
export interface AuditLogTable {
  /** UUIDv7, so entries sort in the order they were written. */
  id: string;
  /** Who did it; null when BTalk itself did. */
  actor_id: string | null;
  /** What was done, `<entity>.<verb>`, e.g. `terms.accepted`. */
  action: string;
  /** What it was done to, `<entity>:<id>`, e.g. `terms:2`. */
  target: string;
  /** Further facts as JSON text. */
  details: string;
  /** The client the request said it came from; null when no request caused it. */
  client_kind: 'web' | 'teams' | null;
  user_agent: string | null;
  created_at: string;
}

/** A sign-in that was started with `GET /api/auth/aad`; used once by `POST /api/auth/code`. */
export interface SignInAttemptsTable {
  /** The OAuth state sent to the directory; the key of the attempt. */
  state: string;
  /** The nonce the ID token must carry. */
  nonce: string;
  /** The PKCE verifier of the challenge sent to the directory. */
  code_verifier: string;
  redirect_uri: string;
  /**
   * SHA-256 (base64url) of the sign-in cookie of the browser that started the attempt; only that
   * browser may complete it. Null only for attempts older than the column, which are refused.
   */
  browser_hash: string | null;
  created_at: string;
  expires_at: string;
}

/** A session: one refresh-token family (its id is the access tokens' `sid`). */
export interface SessionsTable {
  id: string;
  user_id: string;
  /** `web` (signed in at the directory) or `team` (Teams single sign-on). */
  kind: 'web' | 'team';
  /** The directory access token for Graph, sealed (auth/seal.ts). */
  directory_access_token: string;
  directory_access_expires_at: string;
  /** The directory's refresh token, sealed; it never leaves the server. */
  directory_refresh_token: string | null;
  created_at: string;
  refreshed_at: string;
  /** Set when the session ended: sign-out, reuse of a rotated refresh token, disabled person. */
  revoked_at: string | null;
  revoked_reason: string | null;
}

/** One refresh token of a session; only its SHA-256 hash is stored. */
export interface RefreshTokensTable {
  id: string;
  session_id: string;
  /** base64url SHA-256 of the token. */
  token_hash: string;
  created_at: string;
  expires_at: string;
  /** When it was traded for its successor; presenting it again after the grace window ends the session. */
  rotated_at: string | null;
  successor_id: string | null;
  /** The answer that replaced it, sealed with a key derived from this token, for the grace window. */
  successor_sealed: string | null;
}

/** What the development directory (oidc-provider) stores, one row per model instance. */
export interface DirectoryRecordsTable {
  model: string;
  id: string;
  /** The instance as JSON text. */
  payload: string;
  grant_id: string | null;
  uid: string | null;
  user_code: string | null;
  expires_at: string | null;
}

/** A call tree: a hierarchy of people (built from the directory, imported from CSV, or by hand). */
export interface CallTreesTable {
  id: string;
  name: string;
  /** Where its people came from; only `directory` trees refresh from the directory. */
  source: 'directory' | 'csv' | 'empty';
  /** For a directory tree of one branch: the person at its top. Null: the whole directory. */
  root_user_id: string | null;
  created_by: string;
  created_at: string;
  updated_at: string;
}

/** A person's place in a tree: who their manager is there (null at the top). */
export interface CallTreeMembersTable {
  tree_id: string;
  user_id: string;
  manager_id: string | null;
  added_at: string;
}

/** The "event manager" role of a tree: may start, close and remind events on it. */
export interface CallTreeManagersTable {
  tree_id: string;
  user_id: string;
  granted_by: string;
  created_at: string;
}

/** The history of a tree's edits (built, refreshed, moved, added, removed, imported, roles). */
export interface CallTreeChangesTable {
  id: string;
  tree_id: string;
  actor_id: string | null;
  action: string;
  /** The person the change is about, if one. */
  user_id: string | null;
  /** JSON text: what changed. */
  detail: string;
  created_at: string;
}

/** A call-tree event (drill or real). */
export interface CallEventsTable {
  id: string;
  tree_id: string;
  /** The top of the targeted branch; null: the whole tree. */
  branch_root_id: string | null;
  title: string;
  message: string;
  kind: 'drill' | 'real';
  /** JSON text: the answer options, `[{id, label, needsHelp}]`. */
  options: string;
  escalation_delay_seconds: number;
  status: 'running' | 'closed';
  target_count: number;
  started_by: string;
  started_at: string;
  closed_by: string | null;
  closed_at: string | null;
}

/** A targeted person of an event (the snapshot taken at start), with their current answer. */
export interface CallEventTargetsTable {
  event_id: string;
  user_id: string;
  /** The person's manager in the snapshot (null at the top of the targeted branch). */
  manager_id: string | null;
  /** 0 at the top of the targeted branch. */
  depth: number;
  status: Generated<'no_answer' | 'safe' | 'need_help'>;
  option_id: string | null;
  /** The current answer (call_answers.id). */
  answer_id: string | null;
  answered_at: string | null;
  first_answered_at: string | null;
  on_behalf: Generated<number>;
  /** How many managers up have been told so far. */
  escalation_level: Generated<number>;
  /** When the next escalation is due; null when answered, closed, or nobody is left to tell. */
  next_escalation_at: string | null;
}

/** Every answer ever given (the history); the target row points at the current one. */
export interface CallAnswersTable {
  id: string;
  /** The client-made idempotency id. */
  client_id: string;
  event_id: string;
  /** The person the answer is about. */
  user_id: string;
  /** Who gave it: the person, or a manager on their behalf. */
  answered_by: string;
  on_behalf: number;
  /** How a manager reached the person (phone, in person, message, other). */
  reached_via: string | null;
  option_id: string;
  status: 'safe' | 'need_help';
  note: string | null;
  location: string | null;
  /** When it was made (on the device, for an answer queued offline). */
  answered_at: string;
  /** When the server received it. */
  recorded_at: string;
}

/** A manager told that a person has not answered. */
export interface CallEscalationsTable {
  id: string;
  event_id: string;
  user_id: string;
  notified_user_id: string;
  /** 1: the person's manager, 2: the next one up, ... */
  level: number;
  created_at: string;
}

/** A "remind non-responders" action. */
export interface CallRemindersTable {
  id: string;
  event_id: string;
  sent_by: string;
  recipients: number;
  created_at: string;
}

/** An in-app notification of a person. */
export interface NotificationsTable {
  id: string;
  user_id: string;
  /** e.g. `calltree.started`, `calltree.escalation`, `calltree.reminder`. */
  kind: string;
  title: string;
  body: string;
  /** JSON text: ids the client needs to open the thing. */
  data: string;
  created_at: string;
  read_at: string | null;
  /** The topic, post and comment it is about, when it is about one (deleting them withdraws it). */
  topic_id: ColumnType<string | null, string | null | undefined, string | null>;
  post_id: ColumnType<string | null, string | null | undefined, string | null>;
  comment_id: ColumnType<string | null, string | null | undefined, string | null>;
  /** Who caused it; null for the system (escalations). */
  actor_id: ColumnType<string | null, string | null | undefined, string | null>;
  /** 1 for urgent notifications (call tree): they ignore mutes and quiet hours. */
  urgent: ColumnType<number, number | undefined, number>;
  /** When the delivery worker turned it into deliveries; null while it waits in the outbox. */
  dispatched_at: ColumnType<string | null, string | null | undefined, string | null>;
}

/** The outbox: one delivery of a notification to one channel, retried until sent or dead. */
/** The bot's 1:1 conversation with a person who added BTalk in Teams; `removed_at` set once removed. */
export interface TeamsConversationsTable {
  user_id: string;
  tenant_id: string | null;
  /** The Bot Connector's address for this conversation (from the activity). */
  service_url: string;
  conversation_id: string;
  /** The bot's id in the conversation (the activity's recipient). */
  bot_id: string;
  installed_at: string;
  updated_at: string;
  removed_at: string | null;
  /** Why sending stopped: removed in Teams, or the Bot Connector answered 403/404. */
  removed_reason: string | null;
}
export type TeamsConversationRow = Selectable<TeamsConversationsTable>;

export interface NotificationDeliveriesTable {
  id: string;
  notification_id: string;
  user_id: string;
  channel: 'push' | 'email' | 'teams';
  status: 'pending' | 'sent' | 'skipped' | 'dead';
  urgent: number;
  attempts: number;
  /** When the worker may next try it. */
  next_attempt_at: string;
  /** A worker holds it until then (a crashed worker's lease runs out). */
  locked_until: string | null;
  locked_by: string | null;
  last_error: string | null;
  sent_at: string | null;
  created_at: string;
  updated_at: string;
}

/** A person's notification settings, as JSON text checked by contracts' `NotificationSettings`. */
export interface NotificationSettingsTable {
  user_id: string;
  settings: string;
  updated_at: string;
}

/** A browser's Web Push subscription. */
export interface PushSubscriptionsTable {
  id: string;
  user_id: string;
  endpoint: string;
  p256dh: string;
  auth: string;
  created_at: string;
  last_success_at: string | null;
}

/** A person's chosen notification level of a topic (absent: the default for its visibility). */
export interface TopicNotificationLevelsTable {
  topic_id: string;
  user_id: string;
  level: 'all' | 'mentions' | 'muted';
  updated_at: string;
}

/** A lease that lets one server instance at a time run a background job. */
export interface SchedulerLeasesTable {
  name: string;
  holder: string;
  expires_at: string;
}

/** A topic: where staff talk (see migrations/20261121150000-create-topics.ts). */
export interface TopicsTable {
  id: string;
  /** The creator's optional client-made id (idempotent create). */
  client_id: string | null;
  creator_id: string;
  title: string;
  description: string;
  visibility: 'organisation' | 'members';
  cover_color: string | null;
  cover_emoji: string | null;
  archived_at: string | null;
  /** Number of posts ever written; the next post gets this plus one. */
  post_count: number;
  member_count: number;
  /**
   * A direct conversation's participants (sorted user ids joined with commas, unique), or null for
   * every other topic; optional on insert (see migrations/20261125160001-add-direct-conversations.ts).
   */
  direct_key: ColumnType<string | null, string | null | undefined, string | null>;
  last_activity_at: string;
  created_at: string;
  updated_at: string;
}

/** A member of a topic and their role. */
export interface TopicMembersTable {
  topic_id: string;
  user_id: string;
  role: 'owner' | 'member';
  added_by: string | null;
  created_at: string;
}

/** Someone who follows an organisation-wide topic. */
export interface TopicFollowsTable {
  topic_id: string;
  user_id: string;
  created_at: string;
}

/** How far a person has read a topic. */
export interface ReadStatesTable {
  user_id: string;
  topic_id: string;
  last_read_number: number;
  updated_at: string;
}

/** A text a post's edit replaced (see the migration `create-post-revisions`). */
export interface PostRevisionsTable {
  post_id: string;
  /** The post's edit, from 1. */
  number: number;
  /** The text before this edit. */
  body: string;
  /** When that text was written (the post's creation or the edit before). */
  written_at: string;
  /** When the edit was made. */
  edited_at: string;
  /** Who made it. */
  editor_id: string;
}

/** A text a comment's edit replaced: as `PostRevisionsTable`, for a comment. */
export interface CommentRevisionsTable extends Omit<PostRevisionsTable, 'post_id'> {
  comment_id: string;
}

/** A post in a topic. */
export interface PostsTable {
  id: string;
  topic_id: string;
  author_id: string;
  /** The author's client-made id; unique per author. */
  client_id: string;
  /** Hash of the create request, to tell a retry from a different post with a reused id. */
  request_hash: string;
  /** Position in the topic, from 1. */
  number: number;
  body: string;
  comment_count: number;
  pinned_at: string | null;
  pinned_by: string | null;
  edited_at: string | null;
  deleted_at: string | null;
  deleted_by: string | null;
  created_at: string;
  updated_at: string;
}

/** A comment (one level of replies) under a post. */
export interface CommentsTable {
  id: string;
  post_id: string;
  topic_id: string;
  author_id: string;
  client_id: string;
  request_hash: string;
  body: string;
  edited_at: string | null;
  deleted_at: string | null;
  deleted_by: string | null;
  created_at: string;
  updated_at: string;
}

/** A reaction to a post or a comment. */
export interface ReactionsTable {
  id: string;
  topic_id: string;
  post_id: string;
  comment_id: string | null;
  /** The comment's id, or the post's when the post itself was reacted to. */
  target_id: string;
  user_id: string;
  client_id: string;
  emoji: string;
  created_at: string;
}

/** A person mentioned in a post or comment (`target_id`). */
export interface MentionsTable {
  target_id: string;
  post_id: string;
  user_id: string;
}

/** A person's bell on a post: 1 = notify of new comments, 0 = don't. No row = off. */
export interface PostBellsTable {
  post_id: string;
  user_id: string;
  ringing: number;
  updated_at: string;
}

/** A file attached to a post (or uploaded and waiting for its post). */
export interface AttachmentsTable {
  id: string;
  topic_id: string;
  post_id: string | null;
  uploader_id: string;
  /** Server-made name in the file storage. */
  storage_key: string;
  file_name: string;
  content_type: string;
  size_bytes: number;
  kind: 'image' | 'file';
  created_at: string;
}

/** The administrators' upload settings: one row, `id` 'uploads', once one of them set the list. */
export interface UploadSettingsTable {
  id: string;
  /** JSON array of refused extensions, lower case without the dot. */
  refused_extensions: string;
  updated_by: string | null;
  updated_at: string;
}

/** One searchable text: a topic's title and description, a post's or a comment's body. */
export interface SearchDocumentsTable {
  id: Generated<number>;
  kind: 'topic' | 'post' | 'comment';
  ref_id: string;
  topic_id: string;
  /** The post itself, or a comment's post; null for a topic. */
  post_id: string | null;
  /** Who wrote it (a topic: its creator); the person filter. */
  author_id: string | null;
  /** 1 when files are attached (the "has file" filter); 0 by default. */
  has_file: Generated<number>;
  /** The plain text a reader sees (Markdown marks, link targets and ids removed). */
  body: string;
  created_at: string;
}

/** How far retention has pruned the event log (one row, id 1; see realtime/log.ts). */
export interface EventLogHorizonTable {
  id: number;
  /** The greatest sequence number deleted; resuming from before it needs a resync. */
  pruned_through_seq: number;
  pruned_at: string;
}

/** The whole database, for Kysely. */
export interface Database {
  users: UsersTable;
  page_views: PageViewsTable;
  events: EventsTable;
  terms_versions: TermsVersionsTable;
  terms_acceptances: TermsAcceptancesTable;
  audit_log: AuditLogTable;
  sign_in_attempts: SignInAttemptsTable;
  sessions: SessionsTable;
  refresh_tokens: RefreshTokensTable;
  directory_records: DirectoryRecordsTable;
  call_trees: CallTreesTable;
  call_tree_members: CallTreeMembersTable;
  call_tree_managers: CallTreeManagersTable;
  call_tree_changes: CallTreeChangesTable;
  call_events: CallEventsTable;
  call_event_targets: CallEventTargetsTable;
  call_answers: CallAnswersTable;
  call_escalations: CallEscalationsTable;
  call_reminders: CallRemindersTable;
  notifications: NotificationsTable;
  notification_deliveries: NotificationDeliveriesTable;
  teams_conversations: TeamsConversationsTable;
  notification_settings: NotificationSettingsTable;
  push_subscriptions: PushSubscriptionsTable;
  topic_notification_levels: TopicNotificationLevelsTable;
  scheduler_leases: SchedulerLeasesTable;
  topics: TopicsTable;
  topic_members: TopicMembersTable;
  topic_follows: TopicFollowsTable;
  read_states: ReadStatesTable;
  posts: PostsTable;
  comments: CommentsTable;
  reactions: ReactionsTable;
  mentions: MentionsTable;
  post_bells: PostBellsTable;
  attachments: AttachmentsTable;
  upload_settings: UploadSettingsTable;
  post_revisions: PostRevisionsTable;
  comment_revisions: CommentRevisionsTable;
  search_documents: SearchDocumentsTable;
  event_log_horizon: EventLogHorizonTable;
  announcements: AnnouncementsTable;
  announcement_recipients: AnnouncementRecipientsTable;
}

/** A post marked important, acknowledgement requested (issue 17), with its audience's counters. */
export interface AnnouncementsTable {
  post_id: string;
  topic_id: string;
  author_id: string;
  marked_at: string;
  /** 1: delivered through quiet hours and mutes. */
  urgent: number;
  due_at: string | null;
  remind_after_minutes: number | null;
  /** When the automatic reminder is due (marked_at + remind_after_minutes); null: none. */
  remind_at: string | null;
  /** When the automatic reminder went (set once, by a conditional update). */
  auto_reminded_at: string | null;
  /** When the author last used "remind again". */
  reminded_at: string | null;
  audience: number;
  seen_count: number;
  acknowledged_count: number;
  /** Grows with every change of the counters; `emitted_changes` is what the last progress event said. */
  changes: number;
  emitted_changes: number;
}

/** One person asked to acknowledge an important post. */
export interface AnnouncementRecipientsTable {
  post_id: string;
  user_id: string;
  added_at: string;
  /** When the post was first on their screen. */
  seen_at: string | null;
  acknowledged_at: string | null;
}

export type UserRow = Selectable<UsersTable>;
export type NewUserRow = Insertable<UsersTable>;
export type UserUpdate = Updateable<UsersTable>;
export type TermsVersionRow = Selectable<TermsVersionsTable>;
export type TermsAcceptanceRow = Selectable<TermsAcceptancesTable>;
export type AuditLogRow = Selectable<AuditLogTable>;
export type SessionRow = Selectable<SessionsTable>;
export type RefreshTokenRow = Selectable<RefreshTokensTable>;
/** A call tree as read. */
export type CallTreeRow = Selectable<CallTreesTable>;
/** A call-tree event as read. */
export type CallEventRow = Selectable<CallEventsTable>;
/** A targeted person of an event as read. */
export type CallEventTargetRow = Selectable<CallEventTargetsTable>;
/** An answer as read. */
export type CallAnswerRow = Selectable<CallAnswersTable>;
/** A row of `notifications`. */
export type NotificationRow = Selectable<NotificationsTable>;
/** A row of `notification_deliveries`. */
export type DeliveryRow = Selectable<NotificationDeliveriesTable>;
/** A row of `push_subscriptions`. */
export type PushSubscriptionRow = Selectable<PushSubscriptionsTable>;
export type TopicRow = Selectable<TopicsTable>;
export type TopicMemberRow = Selectable<TopicMembersTable>;
export type PostRow = Selectable<PostsTable>;
export type CommentRow = Selectable<CommentsTable>;
export type AttachmentRow = Selectable<AttachmentsTable>;
export type UploadSettingsRow = Selectable<UploadSettingsTable>;
/** A row of `post_revisions`. */
export type PostRevisionRow = Selectable<PostRevisionsTable>;
/** A row of `announcements`. */
export type AnnouncementRow = Selectable<AnnouncementsTable>;
/** A row of `announcement_recipients`. */
export type AnnouncementRecipientRow = Selectable<AnnouncementRecipientsTable>;
