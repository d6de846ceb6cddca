import type { Transaction } from 'kysely';
import type { AppContext } from '../context.ts';
import type { Database } from '../db/index.ts';

/**
 * Runs a command in one transaction (all of it is written, or none of it), then tells the event bus
 * that domain events may have been committed. Every route that writes goes through this.
 */
export async function transact<T>(
  ctx: AppContext,
  command: (trx: Transaction<Database>) => Promise<T>,
): Promise<T> {
  const result = await ctx.db.kysely.transaction().execute(command);
  ctx.bus.committed();
  return result;
}
