import { AdaptiveCard, type IAdaptiveCard, OpenUrlAction, TextBlock } from '@microsoft/teams.cards';

/** A person's language for the bot's own cards: Thai or English. */
export type BotLocale = 'th' | 'en';

/** Thai for a Teams locale such as `th-TH`, English otherwise. */
export function botLocaleOf(locale: string | null | undefined): BotLocale {
  return /^th\b/i.test(locale ?? '') ? 'th' : 'en';
}

const HELP = {
  en: {
    title: 'BTalk in Teams',
    what: 'Here BTalk sends you notifications of the posts you follow, and call-tree alerts you can answer from the card.',
    stop: 'To stop notifications for one post, turn its bell off (from the card, or on the post in BTalk). To choose what reaches you here, open the notification settings.',
    replies: 'Messages typed here are not read by anyone: write in BTalk instead.',
    open: 'Open BTalk',
    settings: 'Notification settings',
  },
  th: {
    title: 'BTalk ใน Teams',
    what: 'BTalk จะส่งการแจ้งเตือนโพสต์ที่คุณติดตาม และการแจ้งเหตุของผังการติดต่อที่คุณตอบได้จากการ์ดมาที่นี่',
    stop: 'หากไม่ต้องการรับการแจ้งเตือนของโพสต์ใด ให้ปิดกระดิ่งของโพสต์นั้น (จากการ์ด หรือที่โพสต์ใน BTalk) หากต้องการเลือกว่าจะได้รับอะไรที่นี่ ให้เปิดการตั้งค่าการแจ้งเตือน',
    replies: 'ข้อความที่พิมพ์ที่นี่จะไม่มีผู้ใดอ่าน กรุณาเขียนใน BTalk แทน',
    open: 'เปิด BTalk',
    settings: 'การตั้งค่าการแจ้งเตือน',
  },
} as const;

const UNKNOWN = {
  en: {
    title: 'BTalk does not know you yet',
    text: 'Sign in to BTalk once with your work account, then try again. If you cannot sign in, ask your administrator.',
    open: 'Open BTalk',
  },
  th: {
    title: 'BTalk ยังไม่รู้จักคุณ',
    text: 'กรุณาลงชื่อเข้าใช้ BTalk ด้วยบัญชีที่ทำงานหนึ่งครั้ง แล้วลองอีกครั้ง หากลงชื่อเข้าใช้ไม่ได้ กรุณาติดต่อผู้ดูแลระบบ',
    open: 'เปิด BTalk',
  },
} as const;

/**
 * The short help card the bot answers a message typed to it with: what BTalk sends here, how to
 * stop it (the post's bell, the notification settings), and a link to the web app.
 */
export function helpCard(locale: BotLocale, publicUrl: string): IAdaptiveCard {
  const words = HELP[locale];
  return new AdaptiveCard(
    new TextBlock(words.title, { weight: 'Bolder', size: 'Medium', wrap: true }),
    new TextBlock(words.what, { wrap: true }),
    new TextBlock(words.stop, { wrap: true }),
    new TextBlock(words.replies, { wrap: true, isSubtle: true }),
  ).withActions(
    new OpenUrlAction(publicUrl, { title: words.open }),
    new OpenUrlAction(`${publicUrl}/settings/notifications`, { title: words.settings }),
  );
}

/** The card a card action of someone BTalk does not know (or has disabled) is answered with. */
export function unknownPersonCard(locale: BotLocale, publicUrl: string): IAdaptiveCard {
  const words = UNKNOWN[locale];
  return new AdaptiveCard(
    new TextBlock(words.title, { weight: 'Bolder', wrap: true }),
    new TextBlock(words.text, { wrap: true }),
  ).withActions(new OpenUrlAction(publicUrl, { title: words.open }));
}
