import type { Migration } from 'kysely';
import * as createUsers from './20261121120000-create-users.ts';
import * as createPageViews from './20261121120100-create-page-views.ts';
import * as createEvents from './20261121120200-create-events.ts';
import * as createSessions from './20261121130000-create-sessions.ts';
import * as createDirectoryRecords from './20261121130100-create-directory-records.ts';
import * as createTerms from './20261121140000-create-terms.ts';
import * as createAuditLog from './20261121140100-create-audit-log.ts';
import * as seedDefaultTerms from './20261121140200-seed-default-terms.ts';
import * as createTopics from './20261121150000-create-topics.ts';
import * as createSearch from './20261121150100-create-search.ts';
import * as createEventLogHorizon from './20261121160000-create-event-log-horizon.ts';
import * as createCallTrees from './20261121170000-create-call-trees.ts';
import * as createNotificationOutbox from './20261123120000-create-notification-outbox.ts';
import * as bindSignInAttempts from './20261124130000-bind-sign-in-attempts.ts';
import * as addUserAccessSources from './20261124154500-add-user-access-sources.ts';
import * as indexUnpostedAttachments from './20261124171300-index-unposted-attachments.ts';
import * as createTeamsConversations from './20261125090000-create-teams-conversations.ts';
import * as indexPostsForUnreadCounts from './20261125120000-index-posts-for-unread-counts.ts';
import * as addDirectConversations from './20261125160001-add-direct-conversations.ts';
import * as searchFiltersAndComments from './20261125160002-search-filters-and-comments.ts';
import * as createUploadSettings from './20261125160003-create-upload-settings.ts';
import * as createPostRevisions from './20261125160005-create-post-revisions.ts';
import * as addUserNameParts from './20261125160101-add-user-name-parts.ts';
import * as createAnnouncements from './20261127120000-create-announcements.ts';
import * as indexCallEventTargetStatus from './20261127220000-index-call-event-target-status.ts';
import * as sequenceEventsAtCommit from './20261128090000-sequence-events-at-commit.ts';
import * as indexCallEventTargetManager from './20261128090100-index-call-event-target-manager.ts';
import * as recordCallAnswerInOneStatement from './20261128150000-record-call-answer-in-one-statement.ts';
import * as recordOwnAnswerWhileRunning from './20261204120000-record-own-answer-while-running.ts';

/**
 * Every migration, by name. Append-only: a migration that has shipped is never edited; add a new
 * timestamped file and list it here. Names sort in the order they run.
 */
export const migrations: Record<string, Migration> = {
  '20261121120000-create-users': createUsers,
  '20261121120100-create-page-views': createPageViews,
  '20261121120200-create-events': createEvents,
  '20261121130000-create-sessions': createSessions,
  '20261121130100-create-directory-records': createDirectoryRecords,
  '20261121140000-create-terms': createTerms,
  '20261121140100-create-audit-log': createAuditLog,
  '20261121140200-seed-default-terms': seedDefaultTerms,
  '20261121150000-create-topics': createTopics,
  '20261121150100-create-search': createSearch,
  '20261121160000-create-event-log-horizon': createEventLogHorizon,
  '20261121170000-create-call-trees': createCallTrees,
  '20261123120000-create-notification-outbox': createNotificationOutbox,
  '20261124130000-bind-sign-in-attempts': bindSignInAttempts,
  '20261124154500-add-user-access-sources': addUserAccessSources,
  '20261124171300-index-unposted-attachments': indexUnpostedAttachments,
  '20261125090000-create-teams-conversations': createTeamsConversations,
  '20261125120000-index-posts-for-unread-counts': indexPostsForUnreadCounts,
  '20261125160001-add-direct-conversations': addDirectConversations,
  '20261125160002-search-filters-and-comments': searchFiltersAndComments,
  '20261125160003-create-upload-settings': createUploadSettings,
  '20261125160005-create-post-revisions': createPostRevisions,
  '20261125160101-add-user-name-parts': addUserNameParts,
  '20261127120000-create-announcements': createAnnouncements,
  '20261127220000-index-call-event-target-status': indexCallEventTargetStatus,
  '20261128090000-sequence-events-at-commit': sequenceEventsAtCommit,
  '20261128090100-index-call-event-target-manager': indexCallEventTargetManager,
  '20261128150000-record-call-answer-in-one-statement': recordCallAnswerInOneStatement,
  '20261204120000-record-own-answer-while-running': recordOwnAnswerWhileRunning,
};
