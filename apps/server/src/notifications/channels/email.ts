import { createTransport } from 'nodemailer';
import type { UserRow } from '../../db/schema.ts';
import type { Channel, OutgoingMessage, SendResult } from './channel.ts';

/** What the e-mail channel needs. */
export interface EmailChannelOptions {
  /** `smtp://user:pass@host:587` or `smtps://…` (SMTP_URL). */
  smtpUrl: string;
  /** The From address (SMTP_FROM). */
  from: string;
  /** The web app's origin, for the unsubscribe links. */
  publicUrl: string;
  /** The signed token of a person's unsubscribe link (notifications/unsubscribe.ts). */
  unsubscribe: (userId: string) => string;
}

type Locale = OutgoingMessage['locale'];

/** The words of a notification e-mail. */
const words: Record<
  Locale,
  { urgent: string; open: string; acknowledge: string; why: string; stop: string }
> = {
  en: {
    urgent: '[Urgent] ',
    open: 'Open in BTalk',
    acknowledge: 'Open in BTalk to acknowledge',
    why: 'You receive this e-mail because of your BTalk notification settings.',
    stop: 'Stop these e-mails',
  },
  th: {
    urgent: '[ด่วน] ',
    open: 'เปิดใน BTalk',
    acknowledge: 'เปิดใน BTalk เพื่อกดรับทราบ',
    why: 'คุณได้รับอีเมลนี้ตามการตั้งค่าการแจ้งเตือนของ BTalk',
    stop: 'หยุดรับอีเมลเหล่านี้',
  },
};

const HTML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Text made safe for HTML content and quoted attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c] ?? c);
}

/** What an e-mail says, as plain text and HTML. */
export interface EmailContent {
  subject: string;
  text: string;
  html: string;
}

/** Words a message as an e-mail in the person's language, with the unsubscribe link in its footer. */
export function composeEmail(
  message: OutgoingMessage,
  unsubscribeUrl: string,
  fallbackUrl: string,
): EmailContent {
  const w = words[message.locale] ?? words.en;
  // Only web links go into the button: the URL comes from the worker, but a mail is no place to find out.
  const url = /^https?:\/\//i.test(message.url) ? message.url : fallbackUrl;
  const subject = `${message.urgent ? w.urgent : ''}${message.title}`.replace(/[\r\n]+/g, ' ');
  // An important post is acknowledged in the app (a link in a mail is opened by scanners, too).
  const open = message.acknowledge ? w.acknowledge : w.open;
  const text = [message.body, '', `${open}: ${url}`, '', '-- ', w.why, `${w.stop}: ${unsubscribeUrl}`].join(
    '\n',
  );
  const paragraphs = message.body
    .split(/\n{2,}/)
    .map((p) => `<p style="margin:0 0 12px">${escapeHtml(p).replace(/\n/g, '<br>')}</p>`)
    .join('\n');
  const html = `<!doctype html>
<html lang="${message.locale === 'th' ? 'th' : 'en'}">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${escapeHtml(subject)}</title></head>
<body style="margin:0;padding:24px;background:#f5f3fa;font-family:Sarabun,Arial,sans-serif;color:#1d1b20">
<div style="max-width:560px;margin:0 auto;background:#ffffff;border-radius:12px;padding:24px">
<h1 style="margin:0 0 16px;font-size:20px;color:${message.urgent ? '#8F0562' : '#472F92'}">${escapeHtml(subject)}</h1>
${paragraphs}
<p style="margin:24px 0"><a href="${escapeHtml(url)}" style="display:inline-block;background:#472F92;color:#ffffff;text-decoration:none;padding:10px 20px;border-radius:8px">${escapeHtml(open)}</a></p>
</div>
<p style="max-width:560px;margin:16px auto 0;font-size:12px;color:#5f5b66">${escapeHtml(w.why)} <a href="${escapeHtml(unsubscribeUrl)}" style="color:#5f5b66">${escapeHtml(w.stop)}</a></p>
</body>
</html>`;
  return { subject, text, html };
}

/** An error from nodemailer, as far as the channel reads it. */
interface SmtpError {
  code?: string;
  responseCode?: number;
  message?: string;
}

/** A failure's text for the dead-letter list: the SMTP server's answer, without anything else. */
function errorText(error: SmtpError): string {
  return (error.message ?? String(error)).replace(/\s+/g, ' ').slice(0, 300);
}

/**
 * The e-mail channel: one e-mail per message to the person's directory address, through the SMTP
 * server of SMTP_URL (pooled connections), with one-click unsubscribe (RFC 8058).
 */
export function createEmailChannel(options: EmailChannelOptions): Channel {
  const publicUrl = options.publicUrl.replace(/\/+$/, '');
  const transport = createTransport({
    url: options.smtpUrl,
    pool: true,
    // The worker waits for each send: a silent SMTP server must not hold it for nodemailer's minutes.
    connectionTimeout: 30_000,
    greetingTimeout: 30_000,
    socketTimeout: 60_000,
  });

  return {
    name: 'email',
    async send(person: UserRow, message: OutgoingMessage): Promise<SendResult> {
      const to = person.email.trim();
      if (!to) return { status: 'skipped', reason: 'no e-mail address' };
      const token = encodeURIComponent(options.unsubscribe(person.id));
      const content = composeEmail(message, `${publicUrl}/unsubscribe?token=${token}`, publicUrl);
      try {
        await transport.sendMail({
          from: options.from,
          to,
          subject: content.subject,
          text: content.text,
          html: content.html,
          headers: {
            // RFC 8058: mail clients POST "List-Unsubscribe=One-Click" here, no page and no sign-in.
            'List-Unsubscribe': `<${publicUrl}/api/notifications/unsubscribe?token=${token}>`,
            'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
            // RFC 3834: automatic mail, so that out-of-office replies are not sent back to it.
            'Auto-Submitted': 'auto-generated',
          },
        });
        return { status: 'sent' };
      } catch (caught) {
        const error = caught as SmtpError;
        // Wrong SMTP credentials (535) are the server's configuration, not this message: once fixed,
        // a retry delivers it. Any other 5xx refuses the message itself (no such mailbox, rejected).
        const permanent =
          typeof error.responseCode === 'number' && error.responseCode >= 500 && error.code !== 'EAUTH';
        return { status: 'failed', error: `e-mail not sent: ${errorText(error)}`, permanent };
      }
    },
    async close() {
      transport.close();
    },
  };
}
