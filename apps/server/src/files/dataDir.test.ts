import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { tokenSecret } from '../auth/secrets.ts';
import { migrateToLatest, openDatabase } from '../db/index.ts';
import { directorySigningKey } from '../directory/keys.ts';
import { loadVapidKeys } from '../notifications/vapid.ts';
import { testConfig } from '../test/server.ts';
import { keptSecret, secureDataDir } from './dataDir.ts';

const root = mkdtempSync(path.join(tmpdir(), 'btalk-datadir-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const modeOf = (target: string) => statSync(target).mode & 0o777;

describe('DATA_DIR', () => {
  it('is made private with everything the server keeps in it', async () => {
    const dataDir = path.join(root, 'fresh', 'data');
    expect(secureDataDir(dataDir)).toEqual([]);
    expect(modeOf(dataDir)).toBe(0o700);
    const db = openDatabase({ dataDir });
    try {
      // Migrating writes: the WAL and shared-memory files exist from then on.
      await migrateToLatest(db);
      for (const name of ['btalk.sqlite', 'btalk.sqlite-wal', 'btalk.sqlite-shm']) {
        expect(modeOf(path.join(dataDir, name)), name).toBe(0o600);
      }
    } finally {
      await db.close();
    }
    const config = testConfig({ DATA_DIR: dataDir });
    tokenSecret(config);
    directorySigningKey(dataDir);
    loadVapidKeys(config);
    for (const name of ['token-secret', 'directory-key.json', 'vapid.json']) {
      expect(modeOf(path.join(dataDir, name)), name).toBe(0o600);
    }
  });

  it('is created 0700 by whichever part of the server comes first', () => {
    const config = testConfig({ DATA_DIR: path.join(root, 'secret-first') });
    tokenSecret(config);
    expect(modeOf(config.dataDir)).toBe(0o700);
    directorySigningKey(path.join(root, 'key-first'));
    expect(modeOf(path.join(root, 'key-first'))).toBe(0o700);
    loadVapidKeys(testConfig({ DATA_DIR: path.join(root, 'vapid-first') }));
    expect(modeOf(path.join(root, 'vapid-first'))).toBe(0o700);
  });

  it('is tightened when an older server or an operator left it open, and the changes are answered', () => {
    const dataDir = path.join(root, 'loose');
    mkdirSync(path.join(dataDir, 'files', 'ab'), { recursive: true });
    mkdirSync(path.join(dataDir, 'files', 'cd'), { recursive: true });
    writeFileSync(path.join(dataDir, 'btalk.sqlite'), '');
    writeFileSync(path.join(dataDir, 'token-secret'), 'x');
    chmodSync(dataDir, 0o755);
    chmodSync(path.join(dataDir, 'files'), 0o775);
    chmodSync(path.join(dataDir, 'files', 'ab'), 0o755);
    chmodSync(path.join(dataDir, 'files', 'cd'), 0o700);
    chmodSync(path.join(dataDir, 'btalk.sqlite'), 0o644);
    chmodSync(path.join(dataDir, 'token-secret'), 0o600);

    expect(secureDataDir(dataDir).sort()).toEqual(
      [
        dataDir,
        path.join(dataDir, 'btalk.sqlite'),
        path.join(dataDir, 'files'),
        path.join(dataDir, 'files', 'ab'),
      ].sort(),
    );
    expect(modeOf(dataDir)).toBe(0o700);
    expect(modeOf(path.join(dataDir, 'files'))).toBe(0o700);
    expect(modeOf(path.join(dataDir, 'files', 'ab'))).toBe(0o700);
    expect(modeOf(path.join(dataDir, 'btalk.sqlite'))).toBe(0o600);
    // Nothing left to do the second time.
    expect(secureDataDir(dataDir)).toEqual([]);
  });

  it('is nothing to secure when the database is in memory', () => {
    expect(secureDataDir(':memory:')).toEqual([]);
    expect(existsSync(':memory:')).toBe(false);
  });

  it('keeps one secret when instances make it at the same moment: the first one linked in wins', () => {
    const dataDir = path.join(root, 'racing');
    // The other instance's file appears while this one is making its own (as two instances starting at
    // once on one DATA_DIR): this one answers the other's, and leaves nothing of its own behind.
    const mine = keptSecret(dataDir, 'token-secret', () => {
      writeFileSync(path.join(dataDir, 'token-secret'), 'theirs', { mode: 0o600 });
      return 'mine';
    });
    expect(mine).toBe('theirs');
    expect(readdirSync(dataDir)).toEqual(['token-secret']);
    // Made once, then read: `make` is not asked again.
    const fresh = keptSecret(dataDir, 'other-secret', () => 'made');
    expect(fresh).toBe('made');
    expect(modeOf(path.join(dataDir, 'other-secret'))).toBe(0o600);
    expect(keptSecret(dataDir, 'other-secret', () => 'made again')).toBe('made');
    expect(readdirSync(dataDir).sort()).toEqual(['other-secret', 'token-secret']);
  });
});
