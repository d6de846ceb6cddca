import type { AddressInfo } from 'node:net';
import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { UserRow } from '../../db/schema.ts';
import { newId, now } from '../../ids.ts';
import type { Channel, OutgoingMessage } from './channel.ts';
import { createEmailChannel, escapeHtml } from './email.ts';

const PUBLIC_URL = 'https://btalk.test';

function person(overrides: Partial<UserRow> = {}): UserRow {
  const id = newId();
  return {
    id,
    issuer: 'https://directory.test',
    subject: `subject-${id}`,
    tenant_id: null,
    email: 'somsri@btalk.test',
    display_name: 'Somsri',
    department: null,
    job_title: null,
    manager_subject: null,
    phone: null,
    given_name: null,
    surname: null,
    locale: 'en',
    role: 'member',
    role_source: 'directory',
    disabled: 0,
    disabled_source: null,
    tokens_valid_after: null,
    terms_accepted_version: 1,
    created_at: now(),
    updated_at: now(),
    ...overrides,
  };
}

function message(overrides: Partial<OutgoingMessage> = {}): OutgoingMessage {
  return {
    notifications: [],
    title: 'Somchai mentioned you in Flood response',
    body: 'Can you check the pumps at gate 3?\nThe water is rising.',
    url: `${PUBLIC_URL}/topics/t1?comment=c1&from=email`,
    tag: 'topic:t1',
    urgent: false,
    locale: 'en',
    ...overrides,
  };
}

/** A rejection the local SMTP server gives to RCPT TO, with its reply code. */
function smtpError(code: number, text: string): Error {
  return Object.assign(new Error(text), { responseCode: code });
}

describe('e-mail channel', () => {
  let server: SMTPServer;
  let channel: Channel;
  const mails: ParsedMail[] = [];
  /** How the SMTP server answers the next RCPT TO (accepts when null). */
  let rejectRcpt: Error | null = null;

  beforeAll(async () => {
    server = new SMTPServer({
      authOptional: true,
      secure: false,
      // Without STARTTLS on offer, nodemailer sends in the clear, as to a relay on the same host.
      disabledCommands: ['STARTTLS'],
      logger: false,
      onRcptTo(_address, _session, callback) {
        const error = rejectRcpt;
        rejectRcpt = null;
        callback(error);
      },
      onData(stream, _session, callback) {
        simpleParser(stream).then(
          (mail) => {
            mails.push(mail);
            callback();
          },
          (error: Error) => callback(error),
        );
      },
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.server.address() as AddressInfo;
    channel = createEmailChannel({
      smtpUrl: `smtp://127.0.0.1:${port}`,
      from: 'BTalk <btalk@btalk.test>',
      publicUrl: PUBLIC_URL,
      unsubscribe: (userId) => `${userId}.signed`,
    });
  });
  afterAll(async () => {
    await channel.close?.();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  beforeEach(() => {
    mails.length = 0;
  });

  const header = (mail: ParsedMail, name: string) =>
    mail.headerLines
      .find((h) => h.key === name.toLowerCase())
      ?.line.replace(/^[^:]+:\s*/, '')
      .replace(/\r?\n\s+/g, ' ');

  it('is named email', () => {
    expect(channel.name).toBe('email');
  });

  it('sends an English e-mail with the text, the link and one-click unsubscribe', async () => {
    const somsri = person();
    const sent = message();
    expect(await channel.send(somsri, sent)).toEqual({ status: 'sent' });
    expect(mails).toHaveLength(1);
    const [mail] = mails;
    if (!mail) throw new Error('no mail');
    expect(mail.to && !Array.isArray(mail.to) && mail.to.value[0]?.address).toBe('somsri@btalk.test');
    expect(mail.from?.value[0]?.address).toBe('btalk@btalk.test');
    expect(mail.subject).toBe(sent.title);

    const stop = `${PUBLIC_URL}/unsubscribe?token=${somsri.id}.signed`;
    expect(mail.text).toContain('Can you check the pumps at gate 3?\nThe water is rising.');
    expect(mail.text).toContain(`Open in BTalk: ${sent.url}`);
    expect(mail.text).toContain(`Stop these e-mails: ${stop}`);

    const html = String(mail.html);
    expect(html).toContain('<html lang="en">');
    expect(html).toContain('Can you check the pumps at gate 3?<br>The water is rising.');
    expect(html).toContain(`<a href="${escapeHtml(sent.url)}"`);
    expect(html).toContain('&amp;from=email');
    expect(html).toContain('>Open in BTalk</a>');
    expect(html).toContain(`<a href="${stop}"`);
    expect(html).toContain('>Stop these e-mails</a>');

    expect(header(mail, 'List-Unsubscribe')).toBe(
      `<${PUBLIC_URL}/api/notifications/unsubscribe?token=${somsri.id}.signed>`,
    );
    expect(header(mail, 'List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click');
  });

  it('speaks Thai to a person whose language is Thai, and marks urgent messages', async () => {
    const somchai = person({ locale: 'th', email: 'somchai@btalk.test' });
    const sent = message({
      locale: 'th',
      urgent: true,
      title: 'ไฟไหม้อาคาร A: คุณปลอดภัยหรือไม่',
      body: 'กรุณาตอบภายใน 10 นาที',
      url: `${PUBLIC_URL}/calltree/event/e1`,
    });
    expect(await channel.send(somchai, sent)).toEqual({ status: 'sent' });
    const [mail] = mails;
    expect(mail?.subject).toBe('[ด่วน] ไฟไหม้อาคาร A: คุณปลอดภัยหรือไม่');
    expect(mail?.text).toContain('กรุณาตอบภายใน 10 นาที');
    expect(mail?.text).toContain(`เปิดใน BTalk: ${sent.url}`);
    expect(mail?.text).toContain(`หยุดรับอีเมลเหล่านี้: ${PUBLIC_URL}/unsubscribe?token=${somchai.id}.signed`);
    const html = String(mail?.html);
    expect(html).toContain('<html lang="th">');
    expect(html).toContain('>เปิดใน BTalk</a>');
    expect(html).toContain('>หยุดรับอีเมลเหล่านี้</a>');

    mails.length = 0;
    await channel.send(person(), message({ urgent: true }));
    expect(mails[0]?.subject).toBe(`[Urgent] ${message().title}`);
  });

  it("an important post's e-mail asks to acknowledge and links to the post to do it there", async () => {
    const ask = 'Please acknowledge by Fri 27 Nov, 17:00.';
    const sent = message({
      title: 'Important: Safety',
      body: `Fire drill on Friday.\n\n${ask}`,
      urgent: true,
      acknowledge: { postId: 'p1', ask },
    });
    expect(await channel.send(person(), sent)).toEqual({ status: 'sent' });
    const [mail] = mails;
    expect(mail?.subject).toBe('[Urgent] Important: Safety');
    expect(mail?.text).toContain(ask);
    expect(mail?.text).toContain(`Open in BTalk to acknowledge: ${sent.url}`);
    expect(String(mail?.html)).toContain('>Open in BTalk to acknowledge</a>');

    mails.length = 0;
    await channel.send(person({ locale: 'th' }), { ...sent, locale: 'th', title: 'สำคัญ: Safety' });
    expect(mails[0]?.text).toContain(`เปิดใน BTalk เพื่อกดรับทราบ: ${sent.url}`);
  });

  it('escapes HTML in the title and the body', async () => {
    const sent = message({
      title: 'Alert <script>alert(1)</script> & "more"',
      body: '<img src=x onerror=alert(1)>',
    });
    await channel.send(person(), sent);
    const [mail] = mails;
    expect(mail?.subject).toBe(sent.title);
    const html = String(mail?.html);
    expect(html).not.toContain('<script>');
    expect(html).not.toContain('<img');
    expect(html).toContain('Alert &lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;more&quot;');
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(mail?.text).toContain(sent.body);
  });

  it('skips a person without an e-mail address', async () => {
    expect(await channel.send(person({ email: '' }), message())).toEqual({
      status: 'skipped',
      reason: 'no e-mail address',
    });
    expect(mails).toEqual([]);
  });

  it('answers a permanent failure when the SMTP server refuses the mailbox (550)', async () => {
    rejectRcpt = smtpError(550, 'No such user here');
    const result = await channel.send(person(), message());
    expect(result).toMatchObject({ status: 'failed', permanent: true });
    expect(result.status === 'failed' && result.error).toContain('550');
    expect(mails).toEqual([]);
  });

  it('answers a failure to retry when the SMTP server defers (451)', async () => {
    rejectRcpt = smtpError(451, 'Try again later');
    const result = await channel.send(person(), message());
    expect(result).toMatchObject({ status: 'failed', permanent: false });
    expect(result.status === 'failed' && result.error).toContain('451');
  });

  it('answers a failure to retry when the SMTP server cannot be reached', async () => {
    const closed = new SMTPServer({ authOptional: true, disabledCommands: ['STARTTLS'], logger: false });
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.server.address() as AddressInfo;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const unreachable = createEmailChannel({
      smtpUrl: `smtp://127.0.0.1:${port}`,
      from: 'btalk@btalk.test',
      publicUrl: PUBLIC_URL,
      unsubscribe: (userId) => userId,
    });
    try {
      const result = await unreachable.send(person(), message());
      expect(result).toMatchObject({ status: 'failed', permanent: false });
    } finally {
      await unreachable.close?.();
    }
  });
});
