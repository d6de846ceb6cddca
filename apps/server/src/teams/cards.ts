import { randomUUID } from 'node:crypto';
import {
  ActionSet,
  AdaptiveCard,
  type CardElement,
  ExecuteAction,
  OpenUrlAction,
  RichTextBlock,
  TextRun,
} from '@microsoft/teams.cards';

/**
 * The Adaptive Cards the bot sends and answers with (Teams renders version 1.5). Every text that
 * comes from people (names, titles, posts) goes into a `TextRun`, which Adaptive Cards never read as
 * Markdown: what someone typed cannot become a link, a list or bold text in the card, and raw HTML
 * shows as nothing because it is removed first (`teamsSafeLines`).
 */

export type Locale = 'th' | 'en';

/** Card action verbs (`Action.Execute`), agreed with the bot endpoint (teams/cardActions.ts). */
export const CardVerb = {
  answer: 'calltree.answer',
  mute: 'post.mute',
  acknowledge: 'announcement.acknowledge',
} as const;

const words = {
  en: {
    open: 'Open in BTalk',
    mute: 'Stop notifications for this post',
    urgent: 'Urgent',
    drill: 'Drill',
    areYouSafe: 'Are you safe? Answer here:',
    answered: (option: string, time: string) => `You answered ${option} at ${time}.`,
    closed: 'This call-tree event is closed; answers are frozen. Contact your manager directly.',
    notTargeted: 'This call-tree event does not ask you for an answer.',
    notUnderstood: 'This action was not understood. Open BTalk to do it there.',
    muted: 'Notifications for this post are off. You can turn them on again from the post in BTalk.',
    postGone: 'This post no longer exists, or you can no longer see it.',
    failed: 'That did not work. Try again, or open BTalk.',
    important: 'Important',
    acknowledge: 'Acknowledge',
    acknowledged: (time: string) => `Acknowledged at ${time}.`,
    notAnnouncement: 'This post no longer asks for an acknowledgement.',
    ownAnnouncement: 'You wrote this post: its readers acknowledge it.',
  },
  th: {
    open: 'เปิดใน BTalk',
    mute: 'หยุดการแจ้งเตือนของโพสต์นี้',
    urgent: 'ด่วน',
    drill: 'ซ้อม',
    areYouSafe: 'คุณปลอดภัยหรือไม่ ตอบที่นี่:',
    answered: (option: string, time: string) => `คุณตอบว่า ${option} เมื่อเวลา ${time}`,
    closed: 'เหตุการณ์นี้ปิดแล้ว ไม่สามารถเปลี่ยนคำตอบได้ โปรดติดต่อผู้จัดการของคุณโดยตรง',
    notTargeted: 'เหตุการณ์นี้ไม่ได้ขอคำตอบจากคุณ',
    notUnderstood: 'ไม่เข้าใจคำสั่งนี้ โปรดเปิด BTalk เพื่อทำรายการ',
    muted: 'ปิดการแจ้งเตือนของโพสต์นี้แล้ว เปิดอีกครั้งได้จากโพสต์ใน BTalk',
    postGone: 'ไม่พบโพสต์นี้ หรือคุณไม่มีสิทธิ์เห็นโพสต์นี้แล้ว',
    failed: 'ทำรายการไม่สำเร็จ โปรดลองอีกครั้ง หรือเปิด BTalk',
    important: 'สำคัญ',
    acknowledge: 'รับทราบ',
    acknowledged: (time: string) => `รับทราบแล้วเมื่อเวลา ${time}`,
    notAnnouncement: 'โพสต์นี้ไม่ได้ขอให้กดรับทราบแล้ว',
    ownAnnouncement: 'คุณเป็นผู้เขียนโพสต์นี้ ผู้อ่านเป็นผู้กดรับทราบ',
  },
} satisfies Record<Locale, Record<string, string | ((...args: string[]) => string)>>;

/** The card words of a language (unknown languages: English). */
export function cardWords(locale: string) {
  return words[locale === 'th' ? 'th' : 'en'];
}

/** How many lines of a post a card shows, and how many characters at most. */
const MAX_LINES = 4;
const MAX_CHARS = 400;

/**
 * The first lines of a post's or comment's Markdown as plain text fit for a card: mentions as
 * `@Name`, links and images as their text, no HTML, no Markdown marks (bold, headings, quotes, code
 * fences), list items as bullets; at most MAX_LINES lines and MAX_CHARS characters.
 */
export function teamsSafeLines(markdown: string): string[] {
  const text = markdown
    .replace(/\r\n?/g, '\n')
    .replace(/@\[([^\]\n]{1,200})\]\(user:[A-Za-z0-9-]{1,64}\)/g, '@$1')
    .replace(/```[^\n]*\n?([\s\S]*?)```/g, '$1')
    .replace(/!\[([^\]]*)\]\((?:[^()\n]|\([^()\n]*\))*\)/g, '$1')
    .replace(/\[([^\]]*)\]\((?:[^()\n]|\([^()\n]*\))*\)/g, '$1')
    .replace(/<!--[\s\S]*?-->/g, '')
    .replace(/<\/?[A-Za-z][^>]*>/g, '')
    .replace(/&(lt|gt|amp|quot|#39|nbsp);/g, (_, e: string) =>
      e === 'lt' ? '<' : e === 'gt' ? '>' : e === 'amp' ? '&' : e === 'quot' ? '"' : e === '#39' ? "'" : ' ',
    );
  const lines: string[] = [];
  for (const raw of text.split('\n')) {
    const line = raw
      .replace(/^\s{0,3}(#{1,6}|>+)\s*/, '')
      .replace(/^\s*[-*+]\s+(\[[ xX]\]\s+)?/, '• ')
      .replace(/(\*\*|__|~~|`)/g, '')
      .replace(/(^|[\s(])[*_](\S)/g, '$1$2')
      .replace(/(\S)[*_](?=$|[\s).,!?:;])/g, '$1')
      // Control characters, line separators and bidirectional overrides (U+202A-E, U+2066-9).
      .replace(/[\p{Cc}\p{Zl}\p{Zp}\u202a-\u202e\u2066-\u2069]/gu, ' ')
      .trim();
    if (line === '' || /^(-{3,}|\*{3,}|_{3,}|\|?[\s:|-]+\|[\s:|-]*)$/.test(line)) continue;
    lines.push(line.replace(/\s+/g, ' '));
    if (lines.length === MAX_LINES) break;
  }
  const more = text.split('\n').filter((l) => l.trim() !== '').length > lines.length;
  const clipped: string[] = [];
  let room = MAX_CHARS;
  for (const line of lines) {
    const chars = [...line];
    if (chars.length >= room) {
      clipped.push(`${chars.slice(0, Math.max(0, room - 1)).join('')}…`);
      return clipped;
    }
    clipped.push(line);
    room -= chars.length;
  }
  if (more && clipped.length > 0) clipped[clipped.length - 1] = `${clipped[clipped.length - 1]} …`;
  return clipped;
}

/** A block of literal text (a TextRun is never read as Markdown). */
function literal(text: string, style: Partial<Pick<TextRun, 'weight' | 'size' | 'color' | 'isSubtle'>> = {}) {
  return new RichTextBlock({ inlines: [new TextRun(text, style)] });
}

function card(body: CardElement[], actions: (ExecuteAction | OpenUrlAction)[], speak: string): AdaptiveCard {
  const result = new AdaptiveCard(...body).withFallbackText(speak).withSpeak(speak);
  if (actions.length > 0) result.withActions(...actions);
  return result;
}

/** A post or comment notification (or a burst of them): who, where, the first lines, the actions. */
export interface PostCardInput {
  locale: Locale;
  /** "Somchai mentioned you in Safety" (worded by notifications/wording.ts). */
  title: string;
  /** The topic's title, when the card is about one topic. */
  topicTitle: string | null;
  /** The text to show, as Markdown from people (made Teams-safe here), or lines already worded. */
  text: { markdown: string } | { lines: string[] };
  /** "Open in BTalk": the deep link into the tab. */
  openUrl: string;
  /** The post whose bell "Stop notifications for this post" turns off; null for several posts. */
  postId: string | null;
}

export function postCard(input: PostCardInput): AdaptiveCard {
  const w = cardWords(input.locale);
  const lines = 'markdown' in input.text ? teamsSafeLines(input.text.markdown) : input.text.lines;
  const body: CardElement[] = [literal(input.title, { weight: 'Bolder', size: 'Medium' })];
  if (input.topicTitle) body.push(literal(input.topicTitle, { isSubtle: true }));
  for (const line of lines) body.push(literal(line));
  const actions: (ExecuteAction | OpenUrlAction)[] = [new OpenUrlAction(input.openUrl, { title: w.open })];
  if (input.postId) {
    actions.push(new ExecuteAction({ title: w.mute, verb: CardVerb.mute, data: { postId: input.postId } }));
  }
  return card(body, actions, input.title);
}

/** An important post's request (issue 17): the post, the request, an Acknowledge button. */
export interface AnnouncementCardInput {
  locale: Locale;
  /** "Important: Safety" or the reminder's title (worded by notifications/wording.ts). */
  title: string;
  /** The topic's title. */
  topicTitle: string | null;
  /** The post's Markdown (made Teams-safe here). */
  markdown: string;
  /** "Please acknowledge by Fri 27 Nov, 17:00." (the due time in the person's time zone). */
  ask: string;
  postId: string;
  /** Urgent: a red heading, as call-tree cards. */
  urgent: boolean;
  openUrl: string;
}

export function announcementCard(input: AnnouncementCardInput): AdaptiveCard {
  const w = cardWords(input.locale);
  const heading = input.urgent ? `⚠ ${input.title}` : input.title;
  const body: CardElement[] = [
    literal(heading, { weight: 'Bolder', size: 'Medium', color: input.urgent ? 'Attention' : 'Accent' }),
  ];
  if (input.topicTitle) body.push(literal(input.topicTitle, { isSubtle: true }));
  for (const line of teamsSafeLines(input.markdown)) body.push(literal(line));
  body.push(literal(input.ask, { weight: 'Bolder' }));
  body.push(
    new ActionSet(
      new ExecuteAction({
        title: w.acknowledge,
        verb: CardVerb.acknowledge,
        data: { postId: input.postId },
      }).withStyle('positive'),
    ),
  );
  return card(body, [new OpenUrlAction(input.openUrl, { title: w.open })], heading);
}

/** The card an Acknowledge press is answered with: the post's topic and when the person acknowledged. */
export function acknowledgedCard(input: {
  locale: Locale;
  topicTitle: string;
  time: string;
  openUrl: string;
}): AdaptiveCard {
  const w = cardWords(input.locale);
  const said = w.acknowledged(input.time);
  return card(
    [
      literal(`${w.important}: ${input.topicTitle}`, { weight: 'Bolder', size: 'Medium' }),
      literal(said, { color: 'Good' }),
    ],
    [new OpenUrlAction(input.openUrl, { title: w.open })],
    said,
  );
}

/** An answer option of a call-tree event. */
export interface CardOption {
  id: string;
  label: string;
  needsHelp: boolean;
}

/** A call-tree notification (event started, reminder, escalation): urgent, with answer buttons. */
export interface CallCardInput {
  locale: Locale;
  /** "Fire alarm: are you safe?" (worded by notifications/wording.ts). */
  title: string;
  /** The event's message, or the escalation's text. */
  message: string;
  drill: boolean;
  eventId: string;
  /** The event's options as buttons; empty: no buttons (closed, or someone else's answer is asked). */
  options: CardOption[];
  openUrl: string;
}

export function callCard(input: CallCardInput): AdaptiveCard {
  const w = cardWords(input.locale);
  const heading = `${input.drill ? w.drill : `⚠ ${w.urgent}`}: ${input.title}`;
  const body: CardElement[] = [
    literal(heading, { weight: 'Bolder', size: 'Large', color: input.drill ? 'Warning' : 'Attention' }),
  ];
  for (const line of teamsSafeLines(input.message)) body.push(literal(line));
  const actions: (ExecuteAction | OpenUrlAction)[] = [];
  if (input.options.length > 0) {
    body.push(literal(w.areYouSafe, { weight: 'Bolder' }));
    // One client-made answer id per card: pressing its buttons twice records one answer.
    const answerId = randomUUID();
    body.push(
      new ActionSet(
        ...input.options.map((o) =>
          new ExecuteAction({
            title: o.label,
            verb: CardVerb.answer,
            data: { eventId: input.eventId, optionId: o.id, answerId },
          }).withStyle(o.needsHelp ? 'destructive' : 'positive'),
        ),
      ),
    );
  }
  actions.push(new OpenUrlAction(input.openUrl, { title: w.open }));
  return card(body, actions, heading);
}

/** The card a call-tree answer from a card is answered with: the event and the recorded answer. */
export function answeredCard(input: {
  locale: Locale;
  eventTitle: string;
  optionLabel: string;
  time: string;
  openUrl: string;
}): AdaptiveCard {
  const w = cardWords(input.locale);
  const said = w.answered(input.optionLabel, input.time);
  return card(
    [literal(input.eventTitle, { weight: 'Bolder', size: 'Medium' }), literal(said, { color: 'Good' })],
    [new OpenUrlAction(input.openUrl, { title: w.open })],
    said,
  );
}

/** A card that only says something (an action refused or done), with a link into BTalk when given. */
export function noticeCard(input: {
  locale: Locale;
  say:
    | 'closed'
    | 'notTargeted'
    | 'notUnderstood'
    | 'muted'
    | 'postGone'
    | 'failed'
    | 'notAnnouncement'
    | 'ownAnnouncement';
  title?: string;
  openUrl?: string;
}): AdaptiveCard {
  const w = cardWords(input.locale);
  const text = w[input.say];
  const body: CardElement[] = [];
  if (input.title) body.push(literal(input.title, { weight: 'Bolder', size: 'Medium' }));
  body.push(literal(text));
  return card(body, input.openUrl ? [new OpenUrlAction(input.openUrl, { title: w.open })] : [], text);
}

/** A card as the attachment of a message activity. */
export function cardAttachment(content: AdaptiveCard) {
  return { contentType: 'application/vnd.microsoft.card.adaptive', content };
}
