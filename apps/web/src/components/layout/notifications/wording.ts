import type { Notification } from '@btalk/contracts';
import type { TFunction } from 'i18next';
import { fullTime } from '../../time.ts';

/** What the bell shows of a notification: title and text in the reader's language, and where it leads. */
export interface NotificationWording {
  title: string;
  body: string;
  /** The page the notification opens, or null when it has none. */
  to: string | null;
}

const text = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);

/** The kinds about topics, with their title's translation key. */
const TOPIC_TITLES: Record<string, string> = {
  'post.mention': 'notifications.mention',
  'post.comment': 'notifications.comment',
  'topic.post': 'notifications.post',
  'topic.added': 'notifications.topicAdded',
  // A direct message names only its sender; the conversation's title is its people.
  'direct.message': 'notifications.directMessage',
};

/**
 * Where a topic notification leads: the post (`#post-<n>`, which opens the topic on it, marked) and,
 * for a comment, `?comment=<id>` (which opens the post's comments on it); else the topic.
 */
export function topicLink(data: Record<string, unknown>): string | null {
  const topicId = text(data.topicId);
  if (!topicId) return null;
  const commentId = text(data.commentId);
  // Announcement notices name the post's number `number`; the others `postNumber`.
  const number = typeof data.postNumber === 'number' ? data.postNumber : data.number;
  const postNumber = typeof number === 'number' && Number.isInteger(number) && number >= 1 ? number : null;
  const query = commentId && postNumber ? `?comment=${encodeURIComponent(commentId)}` : '';
  return `/topics/${encodeURIComponent(topicId)}${query}${postNumber ? `#post-${postNumber}` : ''}`;
}

/**
 * An important post asks for acknowledgement, or a reminder of it: the topic in the title, the post's
 * words and the request (with its due time on this device's clock) in the text.
 */
function wordAnnouncement(n: Notification, t: TFunction): NotificationWording {
  const topicTitle = text(n.data.topicTitle);
  const to = topicLink(n.data);
  if (!topicTitle) return { title: n.title, body: n.body, to };
  const dueAt = text(n.data.dueAt);
  const ask = dueAt
    ? t('notifications.announcement.askBy', { time: fullTime(dueAt) })
    : t('notifications.announcement.ask');
  const excerpt = text(n.data.excerpt);
  return {
    title:
      n.kind === 'post.announcement'
        ? t('notifications.announcement.title', { topicTitle })
        : t('notifications.announcementReminder.title', { topicTitle }),
    body: excerpt ? `${excerpt} · ${ask}` : ask,
    to,
  };
}

/**
 * Words a notification from its kind and data in the reader's language; kinds this client does not
 * know, or rows without the values, fall back to the English title and body the server wrote.
 */
export function wordNotification(n: Notification, t: TFunction): NotificationWording {
  if (n.kind === 'post.announcement' || n.kind === 'announcement.reminder') return wordAnnouncement(n, t);
  const topicTitleKey = TOPIC_TITLES[n.kind];
  if (topicTitleKey) {
    const actorName = text(n.data.actorName);
    const topicTitle = text(n.data.topicTitle);
    if (actorName && topicTitle) {
      return {
        title: t(topicTitleKey, { actorName, topicTitle }),
        // The excerpt is the author's own words: shown as written.
        body: typeof n.data.excerpt === 'string' ? n.data.excerpt : n.body,
        to: topicLink(n.data),
      };
    }
    return { title: n.title, body: n.body, to: topicLink(n.data) };
  }
  const eventId = text(n.data.eventId);
  const eventTitle = text(n.data.eventTitle);
  const to = eventId ? `/calltree/event/${encodeURIComponent(eventId)}` : null;
  switch (n.kind) {
    case 'calltree.escalation': {
      const personName = text(n.data.personName);
      const minutes = typeof n.data.minutes === 'number' ? n.data.minutes : null;
      if (personName && eventTitle && minutes !== null) {
        return {
          title: t('notifications.escalation.title', { personName }),
          body: t('notifications.escalation.body', { personName, eventTitle, count: minutes }),
          to,
        };
      }
      break;
    }
    case 'calltree.reminder':
      if (eventTitle) {
        return {
          title: t('notifications.reminder.title', { eventTitle }),
          body: t('notifications.reminder.body'),
          to,
        };
      }
      break;
    case 'calltree.started':
      if (eventTitle) {
        const drill = n.data.kind === 'drill';
        return {
          title: t(drill ? 'notifications.started.drillTitle' : 'notifications.started.title', {
            eventTitle,
          }),
          // The message is the event manager's own words: shown as written.
          body: n.body,
          to,
        };
      }
      break;
  }
  return { title: n.title, body: n.body, to };
}
