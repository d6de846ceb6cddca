import { createHmac, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import type { Browser, Page } from '@playwright/test';

/** The DATA_DIR of the server that global-setup started. */
export function serverDataDir(): string {
  const dir = process.env.BTALK_E2E_DATA_DIR;
  if (!dir)
    throw new Error('BTALK_E2E_DATA_DIR is not set: run the browser tests with `npm run test -w e2e`.');
  return dir;
}

/** What a person written by `insertPerson` is like. */
export interface PersonOptions {
  /** Whether they accepted the current terms of use (default true: only terms tests say false). */
  acceptedTerms?: boolean;
  /** Their role (default member). */
  role?: 'admin' | 'member';
}

function openDatabase(dataDir: string): DatabaseSync {
  const db = new DatabaseSync(path.join(dataDir, 'btalk.sqlite'));
  // The server writes to the same file at the same time.
  db.exec('PRAGMA busy_timeout = 5000');
  return db;
}

function recordAcceptance(db: DatabaseSync, userId: string): void {
  const current = db.prepare('SELECT max(version) AS version FROM terms_versions').get() as {
    version: number | null;
  };
  if (!current.version) throw new Error('the server has no terms version: it seeds version 1 when it starts');
  db.prepare(
    `INSERT INTO terms_acceptances (id, user_id, version, client_kind, accepted_at) VALUES (?, ?, ?, 'web', ?)
     ON CONFLICT (user_id, version) DO NOTHING`,
  ).run(randomUUID(), userId, current.version, new Date().toISOString());
  db.prepare('UPDATE users SET terms_accepted_version = ? WHERE id = ?').run(current.version, userId);
}

/**
 * A person written straight into the server's SQLite database. Unless `acceptedTerms: false`, they
 * have accepted the current terms of use (the server answers 4404 to everyone else).
 */
export function insertPerson(
  dataDir: string,
  displayName: string,
  { acceptedTerms = true, role = 'member' }: PersonOptions = {},
): { id: string } {
  const id = randomUUID();
  const db = openDatabase(dataDir);
  try {
    const at = new Date().toISOString();
    db.prepare(
      `INSERT INTO users (id, issuer, subject, email, display_name, department, job_title, locale, role, disabled, created_at, updated_at)
       VALUES (?, 'https://directory.e2e', ?, ?, ?, 'Operations', 'Safety officer', 'en', ?, 0, ?, ?)`,
    ).run(id, `subject-${id}`, `${id}@btalk.e2e`, displayName, role, at, at);
    if (acceptedTerms) recordAcceptance(db, id);
    return { id };
  } finally {
    db.close();
  }
}

/** Records that a person of the development directory (by e-mail) accepted the current terms. */
export function acceptTermsFor(dataDir: string, email: string): void {
  acceptTerms(dataDir, userIdByEmail(dataDir, email));
}

/** Records that a person (by user id) accepted the current terms, as the server's acceptance does. */
export function acceptTerms(dataDir: string, userId: string): void {
  const db = openDatabase(dataDir);
  try {
    recordAcceptance(db, userId);
  } finally {
    db.close();
  }
}

/** The user id of a person the server knows (e.g. a seeded directory person), by e-mail address. */
export function userIdByEmail(dataDir: string, email: string): string {
  const db = openDatabase(dataDir);
  try {
    const row = db.prepare('SELECT id FROM users WHERE lower(email) = lower(?)').get(email) as
      | { id: string }
      | undefined;
    if (!row) throw new Error(`no person ${email} in the users table: is it a seeded directory person?`);
    return row.id;
  } finally {
    db.close();
  }
}

/** Opens a session row for the person, as a sign-in does: the server refuses tokens of no open session. */
function openSession(dataDir: string, userId: string): string {
  const id = randomUUID();
  const at = new Date().toISOString();
  const db = openDatabase(dataDir);
  try {
    db.prepare(
      `INSERT INTO sessions (id, user_id, kind, directory_access_token, directory_access_expires_at,
         directory_refresh_token, created_at, refreshed_at, revoked_at, revoked_reason)
       VALUES (?, ?, 'web', 'injected by the browser tests', ?, NULL, ?, ?, NULL, NULL)`,
    ).run(id, userId, at, at, at);
    return id;
  } finally {
    db.close();
  }
}

const b64url = (data: string | Buffer) => Buffer.from(data).toString('base64url');

/** An access token exactly as the server signs them (HS256 with its DATA_DIR/token-secret). */
export function accessTokenFor(dataDir: string, issuer: string, userId: string): string {
  const secret = readFileSync(path.join(dataDir, 'token-secret'), 'utf8').trim();
  const now = Math.floor(Date.now() / 1000);
  const sid = openSession(dataDir, userId);
  const header = b64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }));
  const claims = b64url(
    JSON.stringify({
      sub: userId,
      sid,
      iss: issuer,
      aud: 'btalk-api',
      iat: now,
      exp: now + 600,
    }),
  );
  const signature = createHmac('sha256', secret).update(`${header}.${claims}`).digest('base64url');
  return `${header}.${claims}.${signature}`;
}

/**
 * Stores a session the way the app does: tokens sealed with AES-GCM under the non-extractable key in
 * IndexedDB (idb-keyval's store), the sealed values in localStorage under `btalk`, and the directory
 * (Graph) token in plain when given. Run on a page of the app.
 */
export async function storeSession(
  page: Page,
  tokens: { accessToken: string; refreshToken: string; aadToken?: string },
) {
  await page.evaluate(async ({ accessToken, refreshToken, aadToken }) => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const open = indexedDB.open('keyval-store');
      open.onupgradeneeded = () => open.result.createObjectStore('keyval');
      open.onsuccess = () => resolve(open.result);
      open.onerror = () => reject(open.error);
    });
    const stored = await new Promise<CryptoKey | undefined>((resolve) => {
      const get = db.transaction('keyval').objectStore('keyval').get('btalk-token-key');
      get.onsuccess = () => resolve(get.result as CryptoKey | undefined);
    });
    const key =
      stored ??
      (await crypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, false, ['encrypt', 'decrypt']));
    if (!stored) {
      await new Promise((resolve) => {
        const tx = db.transaction('keyval', 'readwrite');
        tx.objectStore('keyval').put(key, 'btalk-token-key');
        tx.oncomplete = resolve;
      });
    }
    const seal = async (text: string) => {
      const iv = crypto.getRandomValues(new Uint8Array(12));
      const sealed = new Uint8Array(
        await crypto.subtle.encrypt({ name: 'AES-GCM', iv }, key, new TextEncoder().encode(text)),
      );
      const all = new Uint8Array(12 + sealed.length);
      all.set(iv);
      all.set(sealed, 12);
      return btoa(String.fromCharCode(...all));
    };
    localStorage.setItem(
      'btalk',
      JSON.stringify({
        btalk_token: await seal(accessToken),
        btalk_refresh: await seal(refreshToken),
        aad_token: aadToken ?? null,
        last_page: '/',
      }),
    );
  }, tokens);
}

/**
 * Signs a new person in without the directory, for tests about something else: writes them into the
 * database (with the current terms accepted unless told otherwise) and stores a session for them in
 * the browser, on a page of the server that needs no session, then opens Home signed in.
 */
export async function signInAs(
  page: Page,
  baseURL: string,
  displayName: string,
  { dataDir = serverDataDir(), ...options }: PersonOptions & { dataDir?: string } = {},
): Promise<{ id: string; token: string }> {
  const person = insertPerson(dataDir, displayName, options);
  const token = accessTokenFor(dataDir, baseURL, person.id);
  await page.goto(`${baseURL}/__/firebase/init.json`);
  await storeSession(page, { accessToken: token, refreshToken: 'injected-refresh-token' });
  await page.goto(`${baseURL}/`);
  return { ...person, token };
}

/** A person signed in in their own browser context (their own tab and realtime connection). */
export async function personPage(
  browser: Browser,
  baseURL: string,
  name: string,
  viewport?: { width: number; height: number },
) {
  const context = await browser.newContext({ baseURL, ...(viewport ? { viewport } : {}) });
  const page = await context.newPage();
  const person = await signInAs(page, baseURL, name);
  return { context, page, ...person };
}

/** A person known to the server who only calls the API (signed in once, their browser closed). */
export async function apiPerson(browser: Browser, baseURL: string, name: string) {
  const someone = await personPage(browser, baseURL, name);
  await someone.context.close();
  return someone;
}
