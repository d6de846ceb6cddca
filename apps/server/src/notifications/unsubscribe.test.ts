import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { newId } from '../ids.ts';
import { unsubscribeToken, verifyUnsubscribeToken } from './unsubscribe.ts';

describe('unsubscribe tokens', () => {
  const secret = randomBytes(32);
  const userId = newId();

  it('name the person they were made for', () => {
    const token = unsubscribeToken(secret, userId);
    expect(token).toMatch(new RegExp(`^${userId}\\.[A-Za-z0-9_-]{43}$`));
    expect(verifyUnsubscribeToken(secret, token)).toBe(userId);
  });

  it('are refused when made with another secret, for another person, or changed', () => {
    const token = unsubscribeToken(secret, userId);
    const mac = token.split('.')[1] ?? '';
    expect(verifyUnsubscribeToken(randomBytes(32), token)).toBeNull();
    expect(verifyUnsubscribeToken(secret, `${newId()}.${mac}`)).toBeNull();
    expect(verifyUnsubscribeToken(secret, `${token}A`)).toBeNull();
    expect(verifyUnsubscribeToken(secret, `${token.slice(0, -1)}!`)).toBeNull();
    expect(verifyUnsubscribeToken(secret, `${token}==`)).toBeNull();
    expect(verifyUnsubscribeToken(secret, mac)).toBeNull();
    expect(verifyUnsubscribeToken(secret, `.${mac}`)).toBeNull();
    expect(verifyUnsubscribeToken(secret, '')).toBeNull();
  });
});
