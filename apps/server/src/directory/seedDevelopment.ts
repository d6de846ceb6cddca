import { seedDevelopmentTopics } from '../commands/seedDevelopmentTopics.ts';
import type { AppContext } from '../context.ts';
import type { UserRow } from '../db/schema.ts';
import { syncDevelopmentPeople } from './index.ts';

/** The people who hold the seeded conversations, in order; the first two are the README's examples. */
const VOICES = ['somchai@btalk.test', 'malee@btalk.test'];
const MORE_VOICES = 4;

/**
 * What `npm start` does in development so that a new user sees a living app: puts the development
 * directory's people in the users table, then seeds a few topics with Thai and English posts. Both
 * steps are idempotent, so every start runs them.
 */
export async function seedDevelopment(ctx: AppContext): Promise<{ people: number; topics: number }> {
  const people = (await syncDevelopmentPeople(ctx)).listed;
  const rows = await ctx.db.kysely
    .selectFrom('users')
    .selectAll()
    .where('issuer', '=', ctx.config.directory.issuer)
    .where('disabled', '=', 0)
    .orderBy('email')
    .execute();
  const byEmail = new Map(rows.map((r) => [r.email, r]));
  const voices: UserRow[] = VOICES.flatMap((email) => byEmail.get(email) ?? []);
  for (const row of rows) {
    if (voices.length >= VOICES.length + MORE_VOICES) break;
    if (row.role !== 'admin' && !voices.includes(row)) voices.push(row);
  }
  const { topics } = await seedDevelopmentTopics(ctx, voices);
  return { people, topics };
}
