import type { Kysely } from 'kysely';

/**
 * An index for "does this person have reports in the event" (`policies/calltree.ts` `eventAccess`),
 * which every answer and every roll-up asks: without it the question read the event's targets
 * through the primary key until one had the person as manager, all 10,000 of them for someone with
 * no reports (an event manager or the crisis team), several milliseconds each time.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('call_event_targets_manager_index')
    .on('call_event_targets')
    .columns(['event_id', 'manager_id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('call_event_targets_manager_index').execute();
}
