import { NotificationKind, type TopicNotificationLevel } from '@btalk/contracts';

/**
 * Who is told what: the one place that decides which people a change notifies, and as which kind.
 * Pure: the caller loads the facts (members, levels, bells, mentions) and this decides, so the rules
 * are tested as a table (rules.test.ts). Nobody is told of their own writing; each person is told once
 * per change, by the strongest reason (a mention beats a followed post beats a new post).
 */

/** What a person's relation to a topic is, as far as notifications go. */
/** A topic's visibility as the rules see it: a direct conversation tells its people of every message. */
export type AudienceVisibility = 'organisation' | 'members' | 'direct';

export interface TopicAudienceMember {
  userId: string;
  /** Whether the person may read the topic now (members-only topics: members; disabled people: never). */
  canSee: boolean;
  /** Whether they are a member (members-only topics default to `all` for members). */
  member: boolean;
  /** The level they chose for the topic; null when they never chose. */
  chosenLevel: TopicNotificationLevel | null;
}

/** A change that may notify people. */
export type Change =
  | {
      type: 'post.created';
      authorId: string;
      visibility: AudienceVisibility;
      /** People mentioned in the post. */
      mentioned: string[];
    }
  | {
      type: 'comment.created';
      authorId: string;
      visibility: AudienceVisibility;
      mentioned: string[];
      /** People whose bell on the post rings (authors and people mentioned ring by default). */
      bellRinging: string[];
    }
  | {
      type: 'post.edited';
      authorId: string;
      visibility: AudienceVisibility;
      /** Only the people the edit mentions for the first time: an edit does not notify anyone again. */
      newlyMentioned: string[];
    }
  | { type: 'member.added'; actorId: string; addedIds: string[] }
  | { type: 'calltree'; kind: 'started' | 'escalation' | 'reminder'; recipientIds: string[] };

/** A person to notify, with the kind and whether it is urgent. */
export interface Recipient {
  userId: string;
  kind: NotificationKind;
  urgent: boolean;
}

/** The level that applies when a person never chose one. */
export function defaultLevel(visibility: AudienceVisibility, member: boolean): TopicNotificationLevel {
  return visibility !== 'organisation' && member ? 'all' : 'mentions';
}

/** The level that applies to a person in a topic. */
export function effectiveLevel(
  visibility: AudienceVisibility,
  person: TopicAudienceMember | undefined,
): TopicNotificationLevel {
  if (!person) return defaultLevel(visibility, false);
  return person.chosenLevel ?? defaultLevel(visibility, person.member);
}

/**
 * Decides who a change notifies. `audience` holds everyone the change may concern (mentioned people,
 * bell ringers, members and people who chose a level), keyed by user id; people missing from it, or
 * who cannot see the topic, are not told.
 */
export function recipientsFor(change: Change, audience: Map<string, TopicAudienceMember>): Recipient[] {
  const told = new Map<string, Recipient>();
  const tell = (userId: string, kind: NotificationKind, urgent = false) => {
    if (!told.has(userId)) told.set(userId, { userId, kind, urgent });
  };
  const visible = (userId: string) => audience.get(userId)?.canSee === true;

  switch (change.type) {
    case 'calltree': {
      const kind = {
        started: NotificationKind.callStarted,
        escalation: NotificationKind.callEscalation,
        reminder: NotificationKind.callReminder,
      }[change.kind];
      // Urgent: no level, mute or quiet hours stands in the way of an emergency.
      for (const id of change.recipientIds) tell(id, kind, true);
      return [...told.values()];
    }
    case 'member.added': {
      for (const id of change.addedIds)
        if (id !== change.actorId && visible(id)) tell(id, NotificationKind.topicAdded);
      return [...told.values()];
    }
    case 'post.edited': {
      for (const id of change.newlyMentioned) {
        if (id !== change.authorId && visible(id)) tell(id, NotificationKind.mention);
      }
      return [...told.values()];
    }
    case 'post.created': {
      // A mention reaches the person even in a muted topic, as in Slack and Zulip.
      for (const id of change.mentioned) {
        if (id !== change.authorId && visible(id)) tell(id, NotificationKind.mention);
      }
      // In a direct conversation every message is meant for its people: told as a direct message
      // (switched as a mention is), unless they turned the conversation down to mentions or muted it.
      const kind = change.visibility === 'direct' ? NotificationKind.direct : NotificationKind.post;
      for (const person of audience.values()) {
        if (person.userId === change.authorId || !person.canSee) continue;
        if (effectiveLevel(change.visibility, person) === 'all') tell(person.userId, kind);
      }
      return [...told.values()];
    }
    case 'comment.created': {
      for (const id of change.mentioned) {
        if (id !== change.authorId && visible(id)) tell(id, NotificationKind.mention);
      }
      for (const id of change.bellRinging) {
        if (id === change.authorId || !visible(id)) continue;
        if (effectiveLevel(change.visibility, audience.get(id)) === 'muted') continue;
        tell(id, NotificationKind.comment);
      }
      return [...told.values()];
    }
  }
}
