import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { DEVELOPMENT_API_KEY } from './config/index.ts';
import { TEST_DATABASE_URL, testDatabaseKinds } from './test/db.ts';

const main = fileURLToPath(new URL('./main.ts', import.meta.url));

/** Starts the real server process on a free loopback port and waits until it listens. */
async function startServer(env: Record<string, string>) {
  const child = spawn(
    process.execPath,
    ['--experimental-strip-types', '--disable-warning=ExperimentalWarning', main],
    {
      env: { ...process.env, HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'info', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  const address = await new Promise<string>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = output.match(/Server listening at (http:\/\/127\.0\.0\.1:\d+)/);
      if (match?.[1]) resolve(match[1]);
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('exit', (code) => reject(new Error(`server exited with ${code} before listening:\n${output}`)));
  });
  return { child, address, output: () => output };
}

describe('the server process', () => {
  it('serves on SQLite, then exits cleanly on SIGTERM', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'btalk-main-'));
    try {
      const { child, address } = await startServer({ DATA_DIR: dataDir });
      const res = await fetch(`${address}/api/ready`, { headers: { 'x-api-key': DEVELOPMENT_API_KEY } });
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ code: 0, data: { database: 'sqlite' } });
      child.kill('SIGTERM');
      const [code] = await once(child, 'exit');
      expect(code).toBe(0);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('makes a DATA_DIR left open to other users private at start, and says so', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'btalk-main-'));
    try {
      mkdirSync(path.join(dataDir, 'files', 'ab'), { recursive: true, mode: 0o755 });
      writeFileSync(path.join(dataDir, 'btalk.sqlite'), '', { mode: 0o644 });
      chmodSync(dataDir, 0o755);
      const { child, output } = await startServer({ DATA_DIR: dataDir });
      child.kill('SIGTERM');
      await once(child, 'exit');
      expect(output()).toContain('DATA_DIR was open to other users');
      expect(statSync(dataDir).mode & 0o777).toBe(0o700);
      expect(statSync(path.join(dataDir, 'files', 'ab')).mode & 0o777).toBe(0o700);
      for (const name of ['btalk.sqlite', 'token-secret', 'directory-key.json', 'vapid.json']) {
        expect(statSync(path.join(dataDir, name)).mode & 0o777, name).toBe(0o600);
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it.runIf(testDatabaseKinds.includes('postgres'))(
    'migrates PostgreSQL when DATABASE_URL is set',
    async () => {
      const schema = `btalk_main_${process.pid}_${Date.now()}`;
      const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
      await admin.connect();
      await admin.query(`create schema ${schema}`);
      try {
        const url = new URL(TEST_DATABASE_URL);
        url.searchParams.set('options', `-c search_path=${schema}`);
        const { child, address } = await startServer({ DATABASE_URL: url.toString() });
        const res = await fetch(`${address}/api/ready`, { headers: { 'x-api-key': DEVELOPMENT_API_KEY } });
        expect(await res.json()).toMatchObject({ code: 0, data: { status: 'ready', database: 'postgres' } });
        const tables = await admin.query(
          'select table_name from information_schema.tables where table_schema = $1',
          [schema],
        );
        expect(tables.rows.map((r: { table_name: string }) => r.table_name)).toContain('users');
        child.kill('SIGTERM');
        const [code] = await once(child, 'exit');
        expect(code).toBe(0);
      } finally {
        await admin.query(`drop schema if exists ${schema} cascade`);
        await admin.end();
      }
    },
  );

  it('refuses to start with a bad variable and says which', async () => {
    const child = spawn(
      process.execPath,
      ['--experimental-strip-types', '--disable-warning=ExperimentalWarning', main],
      {
        env: { ...process.env, PORT: 'eighty' },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => {
      stderr += c.toString();
    });
    const [code] = await once(child, 'exit');
    expect(code).toBe(78);
    expect(stderr).toContain('PORT: must be a number');
  });

  it('refuses to start with half of the S3 settings, naming the variable and hiding the secret', async () => {
    const child = spawn(
      process.execPath,
      ['--experimental-strip-types', '--disable-warning=ExperimentalWarning', main],
      {
        env: { ...process.env, S3_ENDPOINT: 'http://127.0.0.1:9000', S3_SECRET_ACCESS_KEY: 'hunter2hunter2' },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let output = '';
    child.stdout.on('data', (c: Buffer) => {
      output += c.toString();
    });
    child.stderr.on('data', (c: Buffer) => {
      output += c.toString();
    });
    const [code] = await once(child, 'exit');
    expect(code).toBe(78);
    expect(output).toContain('S3_BUCKET: must be set when other S3_* variables are');
    expect(output).not.toContain('hunter2');
  });
});
