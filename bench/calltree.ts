/**
 * Call-tree scale benchmark: a 10,000-person directory (five levels), a tree built from it, an event
 * started over the whole tree, and the event's roll-up loaded over HTTP, on SQLite and (when
 * reachable) PostgreSQL. Bars (issue 8): the start within 2 s, the roll-up within 1 s.
 *
 *   node --experimental-strip-types --disable-warning=ExperimentalWarning bench/calltree.ts [people]
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { insertInChunks } from '../apps/server/src/calltree/bulk.ts';
import { loadConfig } from '../apps/server/src/config/index.ts';
import { createContext } from '../apps/server/src/context.ts';
import { type Db, migrateToLatest, openDatabase } from '../apps/server/src/db/index.ts';
import { newId, now } from '../apps/server/src/ids.ts';
import { directory, listenAs } from './directory.ts';

const PEOPLE = Number(process.argv[2] ?? 10_000);
const PG_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

async function timed<T>(fn: () => Promise<T>): Promise<[T, number]> {
  const t0 = performance.now();
  const value = await fn();
  return [value, performance.now() - t0];
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function run(label: string, db: Db): Promise<void> {
  await migrateToLatest(db);
  const people = directory(PEOPLE);
  await insertInChunks(db.kysely, 'users', people);
  const config = loadConfig({ BTALK_ENV: 'test', DATA_DIR: ':memory:', LOG_LEVEL: 'silent' });
  const ctx = createContext(config, db, 'bench');
  const { base, headers, call, close } = await listenAs(ctx, people[0]!.id);
  try {
    const [tree, buildMs] = await timed(() =>
      call('POST', '/calltree/trees', { name: 'Everyone', rootUserId: people[0]!.id }),
    );
    const treeId = tree.json.data.tree.id as string;
    const [event, startMs] = await timed(() =>
      call('POST', `/calltree/trees/${treeId}/events`, {
        title: 'Bench drill',
        message: 'Answer now.',
        kind: 'drill',
      }),
    );
    const eventId = event.json.data.id as string;
    if (event.json.data.totals.total !== PEOPLE) throw new Error('the event does not target everyone');
    // Half the people answer (a tenth of them need help), as in the middle of a real drill.
    const rows = await db.kysely
      .selectFrom('call_event_targets')
      .select('user_id')
      .where('event_id', '=', eventId)
      .execute();
    const answered = rows.filter((_, i) => i % 2 === 0).map((r) => r.user_id);
    for (let i = 0; i < answered.length; i += 1000) {
      const chunk = answered.slice(i, i + 1000);
      await db.kysely
        .updateTable('call_event_targets')
        .set({ status: 'safe', option_id: 'safe', answered_at: now(), first_answered_at: now() })
        .where('event_id', '=', eventId)
        .where('user_id', 'in', chunk)
        .execute();
    }
    await db.kysely
      .updateTable('call_event_targets')
      .set({ status: 'need_help', option_id: 'need_help' })
      .where('event_id', '=', eventId)
      .where(
        'user_id',
        'in',
        answered.filter((_, i) => i % 10 === 0),
      )
      .execute();
    const rollups: number[] = [];
    let bytes = 0;
    for (let i = 0; i < 5; i++) {
      const [r, ms] = await timed(() => call('GET', `/calltree/events/${eventId}`));
      rollups.push(ms);
      bytes = r.bytes;
    }
    const [, summaryMs] = await timed(() => call('GET', `/calltree/events/${eventId}/summary`));
    const [, csvMs] = await timed(async () => {
      const res = await fetch(`${base}/calltree/events/${eventId}/report.csv`, { headers });
      if (!res.ok) throw new Error(`report.csv: ${res.status}`);
      return res.text();
    });
    const [answer, answerMs] = await timed(() =>
      call('POST', `/calltree/events/${eventId}/answers`, { id: newId(), optionId: 'safe' }),
    );
    if (!answer.json.data.current) throw new Error('the answer did not become current');
    console.log(
      JSON.stringify({
        database: label,
        people: PEOPLE,
        buildTreeMs: Math.round(buildMs),
        startEventMs: Math.round(startMs),
        rollupMedianMs: Math.round(median(rollups)),
        rollupMaxMs: Math.round(Math.max(...rollups)),
        rollupBytes: bytes,
        summaryMs: Math.round(summaryMs),
        reportCsvMs: Math.round(csvMs),
        answerMs: Math.round(answerMs),
      }),
    );
  } finally {
    await close();
  }
}

const dir = mkdtempSync(path.join(os.tmpdir(), 'btalk-bench-'));
try {
  await run('sqlite', openDatabase({ dataDir: dir }));
} finally {
  rmSync(dir, { recursive: true, force: true });
}

const schema = `btalk_bench_${randomBytes(4).toString('hex')}`;
const admin = new pg.Client({ connectionString: PG_URL, connectionTimeoutMillis: 3000 });
try {
  await admin.connect();
} catch (error) {
  console.log(`PostgreSQL at ${PG_URL} is not reachable (${(error as Error).message}); skipped.`);
  process.exit(0);
}
await admin.query(`create schema ${schema}`);
try {
  await run('postgres', openDatabase({ databaseUrl: PG_URL, dataDir: ':memory:', pgSchema: schema }));
} finally {
  await admin.query(`drop schema ${schema} cascade`);
  await admin.end();
}
