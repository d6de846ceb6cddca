import type { Kysely } from 'kysely';
import { buildApp } from '../apps/server/src/app.ts';
import type { AppContext } from '../apps/server/src/context.ts';
import type { Database } from '../apps/server/src/db/index.ts';
import type { NewUserRow } from '../apps/server/src/db/schema.ts';
import { newId, now } from '../apps/server/src/ids.ts';
import { sessionToken } from '../apps/server/src/test/session.ts';

/** Reports per manager in the benchmarks' directories. */
const FANOUT = 10;

/** A directory of `count` people: one at the top, each manager with up to FANOUT reports. */
export function directory(count: number): NewUserRow[] {
  const at = now();
  const departments = ['Operations', 'Finance', 'Engineering', 'Sales', 'Facilities'];
  return Array.from({ length: count }, (_, i) => ({
    id: newId(),
    issuer: 'https://bench.directory',
    subject: `p${i}`,
    tenant_id: null,
    email: `p${i}@bench.test`,
    display_name: `Person ${i}`,
    department: departments[i % departments.length]!,
    job_title: 'Staff',
    manager_subject: i === 0 ? null : `p${Math.floor((i - 1) / FANOUT)}`,
    phone: `+66-2-${String(i).padStart(6, '0')}`,
    locale: 'en' as const,
    role: i === 0 ? ('admin' as const) : ('member' as const),
    tokens_valid_after: null,
    // Everyone has accepted the default terms (version 1, seeded by a migration).
    terms_accepted_version: 1,
    created_at: at,
    updated_at: at,
  }));
}

/**
 * Builds and starts the app on a loopback port and answers `call(method, url, body)`, which calls
 * its API as `userId` (answering the parsed JSON and the body's size), and `close()`.
 */
export async function listenAs(ctx: AppContext, userId: string) {
  const app = await buildApp(ctx, { logger: false });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/api`;
  const headers = {
    'content-type': 'application/json',
    'x-api-key': ctx.config.apiKey,
    authorization: `Bearer ${await sessionToken({ ctx }, userId)}`,
  };
  const call = async (method: string, url: string, body?: object) => {
    const res = await fetch(`${base}${url}`, {
      method,
      headers,
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${text.slice(0, 300)}`);
    return { json: JSON.parse(text), bytes: text.length };
  };
  return { base, headers, call, close: () => app.close() };
}

/**
 * Signed-in people for the realtime benchmarks, written in bulk: one per id, each having accepted
 * the current terms (as people who use topics have).
 */
export async function insertBenchPeople(db: Kysely<Database>, ids: readonly string[]): Promise<void> {
  const terms = await db
    .selectFrom('terms_versions')
    .select((eb) => eb.fn.max('version').as('version'))
    .executeTakeFirstOrThrow();
  const at = now();
  await db.transaction().execute(async (trx) => {
    for (let i = 0; i < ids.length; i += 500) {
      await trx
        .insertInto('users')
        .values(
          ids.slice(i, i + 500).map((id, j) => ({
            id,
            issuer: 'https://bench.test',
            subject: id,
            tenant_id: null,
            email: `bench${i + j}@bench.test`,
            display_name: `Bench ${i + j}`,
            department: null,
            job_title: null,
            manager_subject: null,
            locale: 'en' as const,
            role: 'member' as const,
            tokens_valid_after: null,
            terms_accepted_version: Number(terms.version),
            created_at: at,
            updated_at: at,
          })),
        )
        .execute();
    }
  });
}
