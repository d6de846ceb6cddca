import type { PageViewRequest } from '@btalk/contracts';
import type { Kysely } from 'kysely';
import type { Database } from '../db/index.ts';
import { newId, now } from '../ids.ts';

/** Records one page view of the web app. */
export async function pageViewRecorder(
  trx: Kysely<Database>,
  input: PageViewRequest,
): Promise<{ id: string }> {
  const id = newId();
  await trx
    .insertInto('page_views')
    .values({ id, path: input.path, locale: input.locale ?? null, created_at: now() })
    .execute();
  return { id };
}
