import { type CallEventOption, NotificationKind } from '@btalk/contracts';
import type { Kysely } from 'kysely';
import type { Config } from '../../config/index.ts';
import type { Database } from '../../db/index.ts';
import type { CallEventRow, TeamsConversationRow, UserRow } from '../../db/schema.ts';
import { announcementCard, callCard, cardAttachment, postCard } from '../../teams/cards.ts';
import { type BotConnector, ConnectorError, type OutgoingActivity } from '../../teams/connector.ts';
import { conversationOf, disconnect } from '../../teams/conversations.ts';
import { tabDeepLink } from '../../teams/deepLinks.ts';
import { dataOf, pathOf, pathOfMany } from '../wording.ts';
import type { Channel, OutgoingMessage, SendResult } from './channel.ts';

/** What the Teams channel needs. */
export interface TeamsChannelOptions {
  db: Kysely<Database>;
  config: Pick<Config, 'teamsAppId' | 'publicUrl'>;
  /** The Bot Connector client (teams/connector.ts). */
  connector: Pick<BotConnector, 'send'>;
  /** The worker's clock (tests pass a controllable one): which earlier deliveries still wait. */
  clock?: () => Date;
  /** Conversations sent to at once (each conversation's messages go one after another). */
  concurrency?: number;
}

const DEFAULT_CONCURRENCY = 16;
const CALL_KINDS: ReadonlySet<string> = new Set([
  NotificationKind.callStarted,
  NotificationKind.callReminder,
  NotificationKind.callEscalation,
]);

type Item = { person: UserRow; message: OutgoingMessage };

const str = (v: unknown): string | null => (typeof v === 'string' && v ? v : null);

/** What the content of the messages needs from the database, loaded once for a batch. */
interface Content {
  posts: Map<string, string>;
  comments: Map<string, string>;
  events: Map<string, CallEventRow>;
}

async function loadContent(db: Kysely<Database>, items: Item[]): Promise<Content> {
  const singles = items
    .filter((i) => i.message.notifications.length === 1)
    .map((i) => i.message.notifications[0]!);
  const postIds = [...new Set(singles.filter((n) => !n.comment_id && n.post_id).map((n) => n.post_id!))];
  const commentIds = [...new Set(singles.flatMap((n) => (n.comment_id ? [n.comment_id] : [])))];
  const eventIds = [
    ...new Set(
      items
        .flatMap((i) =>
          i.message.notifications.filter((n) => CALL_KINDS.has(n.kind)).map((n) => str(dataOf(n).eventId)),
        )
        .filter((id): id is string => id !== null),
    ),
  ];
  const content: Content = { posts: new Map(), comments: new Map(), events: new Map() };
  for (let i = 0; i < postIds.length; i += 1000) {
    const rows = await db
      .selectFrom('posts')
      .select(['id', 'body'])
      .where('id', 'in', postIds.slice(i, i + 1000))
      .execute();
    for (const r of rows) content.posts.set(r.id, r.body);
  }
  for (let i = 0; i < commentIds.length; i += 1000) {
    const rows = await db
      .selectFrom('comments')
      .select(['id', 'body'])
      .where('id', 'in', commentIds.slice(i, i + 1000))
      .execute();
    for (const r of rows) content.comments.set(r.id, r.body);
  }
  for (let i = 0; i < eventIds.length; i += 1000) {
    const rows = await db
      .selectFrom('call_events')
      .selectAll()
      .where('id', 'in', eventIds.slice(i, i + 1000))
      .execute();
    for (const r of rows) content.events.set(r.id, r);
  }
  return content;
}

/** The message activity of one outgoing message: an Adaptive Card, urgent for the call tree. */
export function teamsActivity(
  config: TeamsChannelOptions['config'],
  message: OutgoingMessage,
  content: Content,
): OutgoingActivity {
  const rows = message.notifications;
  const first = rows[0]!;
  const path = rows.length === 1 ? pathOf(first) : pathOfMany(rows);
  const openUrl = tabDeepLink(config, path);
  const d = dataOf(first);
  let card: ReturnType<typeof postCard>;
  if (message.acknowledge) {
    // An important post's request: the post, the request with its due time, Acknowledge.
    card = announcementCard({
      locale: message.locale,
      title: message.title,
      topicTitle: str(d.topicTitle),
      markdown: content.posts.get(message.acknowledge.postId) ?? str(d.excerpt) ?? '',
      ask: message.acknowledge.ask,
      postId: message.acknowledge.postId,
      urgent: message.urgent,
      openUrl,
    });
  } else if (CALL_KINDS.has(first.kind)) {
    const event = content.events.get(str(d.eventId) ?? '');
    // The person's own answer is asked on start and reminder; an escalation asks a manager to reach
    // someone else, which the card cannot record (the web's "answer on behalf" asks how).
    const asksOwnAnswer = first.kind !== NotificationKind.callEscalation;
    const options =
      event && event.status === 'running' && asksOwnAnswer
        ? (JSON.parse(event.options) as CallEventOption[])
        : [];
    card = callCard({
      locale: message.locale,
      title: message.title,
      message: asksOwnAnswer && event ? event.message : first.body,
      drill: (event?.kind ?? d.kind) === 'drill',
      eventId: event?.id ?? str(d.eventId) ?? '',
      options,
      openUrl,
    });
  } else {
    const samePost = rows.every((r) => r.post_id !== null && r.post_id === first.post_id);
    const sameTopic = rows.every((r) => r.topic_id !== null && r.topic_id === first.topic_id);
    const markdown =
      rows.length === 1
        ? first.comment_id
          ? content.comments.get(first.comment_id)
          : first.post_id
            ? content.posts.get(first.post_id)
            : undefined
        : undefined;
    card = postCard({
      locale: message.locale,
      title: message.title,
      topicTitle: sameTopic ? str(d.topicTitle) : null,
      text:
        rows.length === 1
          ? { markdown: markdown ?? str(d.excerpt) ?? first.body }
          : { lines: message.body.split('\n').filter((l) => l.trim() !== '') },
      openUrl,
      postId: samePost ? first.post_id : null,
    });
  }
  return {
    type: 'message',
    summary: message.title,
    // The Bot Framework's highest importance; Teams shows such a 1:1 message as important.
    importance: message.urgent ? 'high' : 'normal',
    attachments: [cardAttachment(card)],
    // Shows in the person's Teams activity feed, not only in the chat.
    channelData: { notification: { alert: true } },
  };
}

/**
 * The Microsoft Teams channel: each message goes to the person's 1:1 conversation with the bot (kept
 * when they pressed Add) as an Adaptive Card through the Bot Connector. People who have not added the
 * app are skipped. A conversation's messages go one after another: urgent (call-tree) ones first, then
 * in the order they were made; after a failure the rest of the round waits, and while an earlier
 * message to the person waits for a retry, later ones wait behind it. 429 retries after the connector's Retry-After; 403 and 404
 * mean the app was removed or blocked: the conversation is disconnected (SPEC's `user_enable` false)
 * and nothing more is sent to it.
 */
export function createTeamsChannel(options: TeamsChannelOptions): Channel {
  const { db, config, connector } = options;
  const clock = options.clock ?? (() => new Date());
  const concurrency = options.concurrency ?? DEFAULT_CONCURRENCY;

  /** Per person, when the earliest of their earlier Teams deliveries waiting for a retry is due. */
  async function waiting(userIds: string[]): Promise<Map<string, { createdAt: string; dueAt: string }[]>> {
    const at = clock().toISOString();
    const found = new Map<string, { createdAt: string; dueAt: string }[]>();
    for (let i = 0; i < userIds.length; i += 1000) {
      const rows = await db
        .selectFrom('notification_deliveries as d')
        .innerJoin('notifications as n', 'n.id', 'd.notification_id')
        .select(['d.user_id', 'n.created_at', 'd.next_attempt_at'])
        .where('d.channel', '=', 'teams')
        .where('d.status', '=', 'pending')
        // Tried and failed: a delivery not tried yet (an announcement held for quiet hours) holds nothing up.
        .where('d.attempts', '>', 0)
        .where('d.next_attempt_at', '>', at)
        .where('d.user_id', 'in', userIds.slice(i, i + 1000))
        .execute();
      for (const r of rows) {
        found.set(r.user_id, [
          ...(found.get(r.user_id) ?? []),
          { createdAt: r.created_at, dueAt: r.next_attempt_at },
        ]);
      }
    }
    return found;
  }

  async function conversationsOf(userIds: string[]): Promise<Map<string, TeamsConversationRow>> {
    const found = new Map<string, TeamsConversationRow>();
    for (let i = 0; i < userIds.length; i += 1000) {
      const rows = await db
        .selectFrom('teams_conversations')
        .selectAll()
        .where('user_id', 'in', userIds.slice(i, i + 1000))
        .where('removed_at', 'is', null)
        .execute();
      for (const r of rows) found.set(r.user_id, r);
    }
    return found;
  }

  /** Stops sending to a conversation the connector refused (unless the person added the app again meanwhile). */
  async function disconnectGone(conversation: TeamsConversationRow, status: number): Promise<void> {
    await db.transaction().execute(async (trx) => {
      const live = await conversationOf(trx, conversation.user_id);
      if (live?.conversation_id === conversation.conversation_id) {
        await disconnect(trx, conversation.user_id, `Teams answered ${status}`);
      }
    });
  }

  /** Sends one person's messages in order; after a failure the rest wait (or are skipped once gone). */
  async function sendInOrder(
    conversation: TeamsConversationRow,
    queue: { index: number; item: Item }[],
    content: Content,
    blockers: { createdAt: string; dueAt: string }[],
    results: SendResult[],
  ): Promise<void> {
    let stop: SendResult | null = null;
    for (const { index, item } of queue) {
      if (stop) {
        results[index] = stop;
        continue;
      }
      const firstCreated = item.message.notifications.map((n) => n.created_at).sort()[0]!;
      const ahead = blockers.filter((b) => b.createdAt <= firstCreated);
      if (ahead.length > 0) {
        const due = Math.min(...ahead.map((b) => Date.parse(b.dueAt)));
        stop = {
          status: 'failed',
          error: 'waiting for an earlier Teams message to this person',
          retryAfterMs: Math.max(0, due - clock().getTime()) + 1000,
        };
        results[index] = stop;
        continue;
      }
      try {
        await connector.send(
          { serviceUrl: conversation.service_url, conversationId: conversation.conversation_id },
          teamsActivity(config, item.message, content),
        );
        results[index] = { status: 'sent' };
      } catch (error) {
        const status = error instanceof ConnectorError ? error.status : 0;
        const text = error instanceof Error ? error.message : String(error);
        if (status === 403 || status === 404) {
          await disconnectGone(conversation, status);
          stop = { status: 'skipped', reason: `Teams answered ${status}: the app was removed or blocked` };
        } else {
          const retryAfterMs = error instanceof ConnectorError ? error.retryAfterMs : undefined;
          stop = {
            status: 'failed',
            error: text,
            // A card the connector refuses (400, 413) is refused again; throttling and outages pass.
            permanent: status >= 400 && status < 500 && status !== 401 && status !== 408 && status !== 429,
            ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
          };
        }
        results[index] = stop;
      }
    }
  }

  async function sendAll(items: Item[]): Promise<SendResult[]> {
    const results: SendResult[] = new Array(items.length);
    const people = [...new Set(items.map((i) => i.person.id))];
    const [conversations, blockers, content] = await Promise.all([
      conversationsOf(people),
      waiting(people),
      loadContent(db, items),
    ]);
    const queues = new Map<string, { index: number; item: Item }[]>();
    for (const [index, item] of items.entries()) {
      if (!conversations.has(item.person.id)) {
        results[index] = { status: 'skipped', reason: 'not connected in Teams' };
        continue;
      }
      queues.set(item.person.id, [...(queues.get(item.person.id) ?? []), { index, item }]);
    }
    // The worker gives a person's urgent messages first, in the order it claimed them; each
    // conversation then gets its urgent ones and the rest each in the order they were made (UUIDv7
    // ids break ties of one timestamp).
    const order = (item: Item) => {
      const first = [...item.message.notifications].sort((a, b) =>
        a.created_at === b.created_at ? a.id.localeCompare(b.id) : a.created_at.localeCompare(b.created_at),
      )[0]!;
      return `${item.message.urgent ? 0 : 1}|${first.created_at}|${first.id}`;
    };
    for (const queue of queues.values()) queue.sort((a, b) => order(a.item).localeCompare(order(b.item)));
    const work = [...queues];
    let next = 0;
    const lanes = Array.from({ length: Math.min(concurrency, work.length) }, async () => {
      for (let j = next++; j < work.length; j = next++) {
        const [userId, queue] = work[j]!;
        await sendInOrder(conversations.get(userId)!, queue, content, blockers.get(userId) ?? [], results);
      }
    });
    await Promise.all(lanes);
    return results;
  }

  return {
    name: 'teams',
    async send(person, message) {
      const [result] = await sendAll([{ person, message }]);
      return result!;
    },
    sendBatch: sendAll,
  };
}
