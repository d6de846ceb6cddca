import { describe, expect, it } from 'vitest';
import { newId } from '../ids.ts';
import {
  ACKNOWLEDGE_LINK_DAYS,
  acknowledgeToken,
  acknowledgeUrl,
  readAcknowledgeToken,
} from './acknowledgeLinks.ts';
import { unsubscribeToken, verifyUnsubscribeToken } from './unsubscribe.ts';

const secret = new Uint8Array(32).fill(3);
const DAY = 24 * 60 * 60 * 1000;

describe('acknowledge links', () => {
  it('name the person and the post until they end, and fit a path parameter', () => {
    const userId = newId();
    const postId = newId();
    const at = new Date('2026-11-27T10:00:00Z');
    const token = acknowledgeToken(secret, userId, postId, at)!;
    expect(token).toMatch(/^[A-Za-z0-9_-]{48}\.[A-Za-z0-9_-]{43}$/);
    expect(readAcknowledgeToken(secret, token, at)).toEqual({
      ok: true,
      userId,
      postId,
      expiresAt: new Date(at.getTime() + ACKNOWLEDGE_LINK_DAYS * DAY),
    });
    const lastMoment = new Date(at.getTime() + ACKNOWLEDGE_LINK_DAYS * DAY - 1000);
    expect(readAcknowledgeToken(secret, token, lastMoment)).toMatchObject({ ok: true });
    const ended = new Date(at.getTime() + ACKNOWLEDGE_LINK_DAYS * DAY);
    expect(readAcknowledgeToken(secret, token, ended)).toEqual({ ok: false, reason: 'expired' });
    expect(acknowledgeUrl('https://btalk.test/', secret, userId, postId, at)).toBe(
      `https://btalk.test/api/announcements/acknowledge/${token}`,
    );
  });

  it('refuse what this server did not make: another key, altered claims or MAC, other forms', () => {
    const token = acknowledgeToken(secret, newId(), newId())!;
    const [claims, mac] = token.split('.') as [string, string];
    const flip = (text: string, i: number) =>
      `${text.slice(0, i)}${text[i] === 'A' ? 'B' : 'A'}${text.slice(i + 1)}`;
    const invalid = { ok: false, reason: 'invalid' };
    expect(readAcknowledgeToken(new Uint8Array(32).fill(4), token)).toEqual(invalid);
    for (const forged of [
      `${flip(claims, 5)}.${mac}`,
      `${flip(claims, 47)}.${mac}`,
      `${claims}.${flip(mac, 0)}`,
      `${claims}.${mac.slice(0, 22)}`,
      `${claims}.${mac}=`,
      `${claims}+.${mac}`,
      `${claims}`,
      '',
      '.',
      `${claims}.${mac}.${mac}`,
      // An unsubscribe token is signed with another key.
      unsubscribeToken(secret, newId()),
    ]) {
      expect(readAcknowledgeToken(secret, forged)).toEqual(invalid);
    }
    // And an acknowledge token is no unsubscribe token.
    expect(verifyUnsubscribeToken(secret, token)).toBeNull();
  });

  it('are not made for ids that are not UUIDs (the notification then opens the post)', () => {
    expect(acknowledgeToken(secret, 'someone', newId())).toBeNull();
    expect(acknowledgeUrl('https://btalk.test', secret, newId(), 'p1')).toBeNull();
  });
});
