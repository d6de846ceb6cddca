import { beforeEach, describe, expect, it } from 'vitest';
import { memoryKeyStore } from '../test/memoryKeyStore.ts';
import { createSessionStore, isRemembered, SESSION_STORAGE_KEY } from './session.ts';
import { createTokenCipher } from './tokenCipher.ts';

describe('the session store', () => {
  let keys: ReturnType<typeof memoryKeyStore>;
  beforeEach(() => {
    keys = memoryKeyStore();
  });

  it('keeps everything under one key, the product tokens sealed and the directory token plain', async () => {
    const session = createSessionStore(localStorage, createTokenCipher(keys));
    await session.setTokens({ accessToken: 'access', refreshToken: 'refresh', aadToken: 'graph' });
    expect(Object.keys(localStorage)).toEqual([SESSION_STORAGE_KEY]);
    const stored = JSON.parse(localStorage.getItem(SESSION_STORAGE_KEY) ?? '{}');
    expect(Object.keys(stored).sort()).toEqual([
      'aad_token',
      'btalk_refresh',
      'btalk_token',
      'last_page',
      'signed_out',
    ]);
    expect(stored.btalk_token).not.toContain('access');
    expect(stored.aad_token).toBe('graph');

    // A new page load with the same key in IndexedDB reads the same session back.
    const again = createSessionStore(localStorage, createTokenCipher(keys));
    expect(await again.accessToken()).toBe('access');
    expect(await again.refreshToken()).toBe('refresh');
    // Without the key the sealed values are useless.
    const foreign = createSessionStore(localStorage, createTokenCipher(memoryKeyStore()));
    expect(await foreign.accessToken()).toBeNull();
  });

  it('creates the key once, non-extractable', async () => {
    const cipher = createTokenCipher(keys);
    await Promise.all([cipher.encrypt('a'), cipher.encrypt('b')]);
    const key = await keys.get('btalk-token-key');
    expect(key?.extractable).toBe(false);
    expect(key?.algorithm).toMatchObject({ name: 'AES-GCM', length: 256 });
  });

  it('clears all three tokens but keeps the last page', async () => {
    const session = createSessionStore(localStorage, createTokenCipher(keys));
    await session.setTokens({ accessToken: 'a', refreshToken: 'r', aadToken: 'g' });
    session.rememberPage('/calltree', '/calltree');
    session.clearTokens();
    expect(session.getState()).toMatchObject({
      btalk_token: null,
      btalk_refresh: null,
      aad_token: null,
      last_page: '/calltree',
    });
  });

  it('remembers a sign-out across page loads until the next session is stored', async () => {
    const session = createSessionStore(localStorage, createTokenCipher(keys));
    await session.setTokens({ accessToken: 'a', refreshToken: 'r', aadToken: 'g' });
    expect(session.getState().signed_out).toBe(false);
    session.signOut();
    expect(session.getState()).toMatchObject({ btalk_token: null, aad_token: null, signed_out: true });
    const reloaded = createSessionStore(localStorage, createTokenCipher(keys));
    expect(reloaded.getState().signed_out).toBe(true);
    // Starting to sign in again (which clears the tokens) keeps it; a stored session ends it.
    reloaded.clearTokens();
    expect(reloaded.getState().signed_out).toBe(true);
    await reloaded.setTokens({ aadToken: 'g2' });
    expect(reloaded.getState().signed_out).toBe(true);
    await reloaded.setTokens({ accessToken: 'a2', refreshToken: 'r2' });
    expect(createSessionStore(localStorage, createTokenCipher(keys)).getState().signed_out).toBe(false);
  });

  it('remembers every route but /aad/callback, /login and /terms, and never persists the waiting flag', () => {
    const session = createSessionStore(localStorage, createTokenCipher(keys));
    expect(session.getState().last_page).toBe('/');
    session.rememberPage('/topics/7', '/topics/7?post=3#c1');
    for (const path of ['/login', '/aad/callback', '/terms', '/terms/']) session.rememberPage(path, path);
    session.rememberPage('/unsubscribe', '/unsubscribe?token=secret');
    session.setWaitingForAadToken(true);
    expect(session.getState()).toMatchObject({
      last_page: '/topics/7?post=3#c1',
      waiting_for_aad_token: true,
    });
    expect(localStorage.getItem(SESSION_STORAGE_KEY)).not.toContain('waiting');
    expect(isRemembered('/calltree/event/1')).toBe(true);
  });

  it('starts empty from a damaged stored value', () => {
    localStorage.setItem(SESSION_STORAGE_KEY, '{not json');
    const session = createSessionStore(localStorage, createTokenCipher(keys));
    expect(session.getState()).toMatchObject({ btalk_token: null, last_page: '/' });
  });
});
