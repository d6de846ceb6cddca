import { NotificationKind } from '@btalk/contracts';
import type { NotificationRow } from '../db/schema.ts';

/**
 * Words push, e-mail and Teams messages in the person's language (the web app words its own list).
 * One notification is told as itself; a burst is coalesced into one message ("3 new comments on ...").
 */

type Locale = 'th' | 'en';

/** A notification's data, read defensively (rows are JSON text). */
export function dataOf(row: NotificationRow): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(row.data);
    return parsed && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

const str = (v: unknown, fallback = ''): string => (typeof v === 'string' && v ? v : fallback);

const single: Record<string, Record<Locale, (d: Record<string, unknown>) => string>> = {
  [NotificationKind.mention]: {
    en: (d) => `${str(d.actorName, 'Someone')} mentioned you in ${str(d.topicTitle, 'a topic')}`,
    th: (d) => `${str(d.actorName, 'มีคน')} กล่าวถึงคุณใน ${str(d.topicTitle, 'หัวข้อ')}`,
  },
  [NotificationKind.direct]: {
    en: (d) => `${str(d.actorName, 'Someone')} sent you a message`,
    th: (d) => `${str(d.actorName, 'มีคน')} ส่งข้อความถึงคุณ`,
  },
  [NotificationKind.comment]: {
    en: (d) => `${str(d.actorName, 'Someone')} commented on a post in ${str(d.topicTitle, 'a topic')}`,
    th: (d) => `${str(d.actorName, 'มีคน')} แสดงความคิดเห็นในโพสต์ของ ${str(d.topicTitle, 'หัวข้อ')}`,
  },
  [NotificationKind.post]: {
    en: (d) => `${str(d.actorName, 'Someone')} posted in ${str(d.topicTitle, 'a topic')}`,
    th: (d) => `${str(d.actorName, 'มีคน')} โพสต์ใน ${str(d.topicTitle, 'หัวข้อ')}`,
  },
  [NotificationKind.topicAdded]: {
    en: (d) => `${str(d.actorName, 'Someone')} added you to ${str(d.topicTitle, 'a topic')}`,
    th: (d) => `${str(d.actorName, 'มีคน')} เพิ่มคุณเข้าหัวข้อ ${str(d.topicTitle, '')}`,
  },
  [NotificationKind.callStarted]: {
    en: (d) => `${d.kind === 'drill' ? 'Drill: ' : ''}${str(d.eventTitle, 'Call tree')}: are you safe?`,
    th: (d) => `${d.kind === 'drill' ? 'ซ้อม: ' : ''}${str(d.eventTitle, 'แผนผังการติดต่อ')}: คุณปลอดภัยหรือไม่`,
  },
  [NotificationKind.callEscalation]: {
    en: (d) => `No answer from ${str(d.personName, 'a person')} (${str(d.eventTitle)})`,
    th: (d) => `ยังไม่มีคำตอบจาก ${str(d.personName, 'ผู้ติดต่อ')} (${str(d.eventTitle)})`,
  },
  [NotificationKind.callReminder]: {
    en: (d) => `Reminder: ${str(d.eventTitle, 'call tree')}: are you safe?`,
    th: (d) => `เตือน: ${str(d.eventTitle, 'แผนผังการติดต่อ')}: คุณปลอดภัยหรือไม่`,
  },
  [NotificationKind.announcement]: {
    en: (d) => `Important: ${str(d.topicTitle, 'a post in BTalk')}`,
    th: (d) => `สำคัญ: ${str(d.topicTitle, 'โพสต์ใน BTalk')}`,
  },
  [NotificationKind.announcementReminder]: {
    en: (d) => `Reminder: please acknowledge a post in ${str(d.topicTitle, 'BTalk')}`,
    th: (d) => `เตือน: โปรดกดรับทราบโพสต์ใน ${str(d.topicTitle, 'BTalk')}`,
  },
};

/** What wording an announcement needs beyond the row: the person's time zone (their quiet hours'), now. */
export interface WordingOptions {
  /** The IANA zone due times are told in; UTC when not given. */
  timeZone?: string;
  /** The moment of sending: a due time already past is told as such. */
  now?: Date;
}

/** A due time on the person's wall clock: "Fri 27 Nov, 17:00" / "ศ. 27 พ.ย. 17:00". */
export function dueTime(iso: string, locale: Locale, timeZone = 'UTC'): string {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return iso;
  const format = (zone: string) =>
    new Intl.DateTimeFormat(locale === 'th' ? 'th-TH' : 'en-GB', {
      timeZone: zone,
      weekday: 'short',
      day: 'numeric',
      month: 'short',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    }).format(at);
  try {
    return format(timeZone);
  } catch {
    // A zone this runtime does not know (settings are checked, but runtimes differ): UTC, said so.
    return `${format('UTC')} UTC`;
  }
}

const asks = {
  en: {
    plain: 'Please acknowledge.',
    by: (due: string) => `Please acknowledge by ${due}.`,
    late: (due: string) => `Please acknowledge: it was due ${due}.`,
  },
  th: {
    plain: 'โปรดกดรับทราบ',
    by: (due: string) => `โปรดกดรับทราบภายใน ${due}`,
    late: (due: string) => `โปรดกดรับทราบ (ครบกำหนดแล้วเมื่อ ${due})`,
  },
} satisfies Record<Locale, { plain: string; by: (due: string) => string; late: (due: string) => string }>;

/** The words of the Acknowledge button of push notifications and Teams cards. */
export const ACKNOWLEDGE_WORD: Record<Locale, string> = { en: 'Acknowledge', th: 'รับทราบ' };

/**
 * The request line of an announcement notification ("Please acknowledge by Fri 27 Nov, 17:00."), the
 * due time in the person's time zone; null for other kinds.
 */
export function announcementAsk(
  row: NotificationRow,
  locale: Locale,
  options: WordingOptions = {},
): string | null {
  if (row.kind !== NotificationKind.announcement && row.kind !== NotificationKind.announcementReminder) {
    return null;
  }
  const w = asks[locale];
  const dueAt = str(dataOf(row).dueAt);
  if (!dueAt) return w.plain;
  const due = dueTime(dueAt, locale, options.timeZone);
  const past = options.now !== undefined && Date.parse(dueAt) <= options.now.getTime();
  return past ? w.late(due) : w.by(due);
}

/** The path in the web app that opens what a notification is about. */
export function pathOf(row: NotificationRow): string {
  const d = dataOf(row);
  if (typeof d.eventId === 'string') return `/calltree/event/${encodeURIComponent(d.eventId)}`;
  if (typeof d.topicId === 'string') {
    const topic = `/topics/${encodeURIComponent(d.topicId)}`;
    const comment = typeof d.commentId === 'string' ? `?comment=${encodeURIComponent(d.commentId)}` : '';
    // Announcement notices name the post's number `number`; the others `postNumber`.
    const number = typeof d.postNumber === 'number' ? d.postNumber : d.number;
    const post = typeof number === 'number' && Number.isInteger(number) ? `#post-${number}` : '';
    return `${topic}${comment}${post}`;
  }
  return '/';
}

/**
 * Title and text of one notification in `locale`; an announcement's text ends with its request
 * ("Please acknowledge by ...").
 */
export function wordOne(
  row: NotificationRow,
  locale: Locale,
  options: WordingOptions = {},
): { title: string; body: string } {
  const d = dataOf(row);
  const title = single[row.kind]?.[locale]?.(d) ?? row.title;
  const text = str(d.excerpt, row.body);
  const ask = announcementAsk(row, locale, options);
  const body = ask === null ? text : text ? `${text}\n\n${ask}` : ask;
  return { title, body };
}

/** Title and text of a burst of notifications (more than one) in `locale`. */
export function wordMany(rows: NotificationRow[], locale: Locale): { title: string; body: string } {
  const n = rows.length;
  const first = dataOf(rows[0]!);
  const samePost = rows.every((r) => r.post_id !== null && r.post_id === rows[0]!.post_id);
  const sameTopic = rows.every((r) => r.topic_id !== null && r.topic_id === rows[0]!.topic_id);
  const allComments = rows.every((r) => r.kind === NotificationKind.comment);
  const topic = str(first.topicTitle);
  let title: string;
  if (samePost && allComments) {
    title =
      locale === 'th' ? `${n} ความคิดเห็นใหม่ในโพสต์ของ ${topic}` : `${n} new comments on a post in ${topic}`;
  } else if (sameTopic) {
    title = locale === 'th' ? `${n} การแจ้งเตือนใหม่ใน ${topic}` : `${n} new notifications in ${topic}`;
  } else {
    title = locale === 'th' ? `${n} การแจ้งเตือนใหม่ใน BTalk` : `${n} new notifications in BTalk`;
  }
  const body = rows
    .slice(0, 3)
    .map((r) => wordOne(r, locale).title)
    .join('\n');
  return { title, body: n > 3 ? `${body}\n…` : body };
}

/** Where a burst leads: the post when they share one, the topic when they share it, else home. */
export function pathOfMany(rows: NotificationRow[]): string {
  if (rows.length === 1) return pathOf(rows[0]!);
  const samePost = rows.every((r) => r.post_id !== null && r.post_id === rows[0]!.post_id);
  if (samePost) return pathOf(rows[0]!).replace(/\?comment=[^#]*/, '');
  const d = dataOf(rows[0]!);
  const sameTopic = rows.every((r) => r.topic_id !== null && r.topic_id === rows[0]!.topic_id);
  if (sameTopic && typeof d.topicId === 'string') return `/topics/${encodeURIComponent(d.topicId)}`;
  return '/';
}
