import type { Kysely } from 'kysely';
import type { Database } from '../db/index.ts';
import type { TeamsConversationRow } from '../db/schema.ts';
import { now } from '../ids.ts';

/** Where the bot talks to a person: what an install activity tells. */
export interface ConversationReference {
  userId: string;
  tenantId: string | null;
  serviceUrl: string;
  conversationId: string;
  botId: string;
}

/**
 * Keeps (or renews) the bot's conversation with a person who added BTalk in Teams: from now on
 * they are connected (SPEC's `user_enable` true).
 */
export async function saveConversation(trx: Kysely<Database>, ref: ConversationReference): Promise<void> {
  const at = now();
  const fields = {
    tenant_id: ref.tenantId,
    service_url: ref.serviceUrl,
    conversation_id: ref.conversationId,
    bot_id: ref.botId,
    updated_at: at,
    removed_at: null,
    removed_reason: null,
  };
  await trx
    .insertInto('teams_conversations')
    .values({ user_id: ref.userId, installed_at: at, ...fields })
    .onConflict((oc) => oc.column('user_id').doUpdateSet(fields))
    .execute();
}

/**
 * Stops sending to a person in Teams (`user_enable` false): they removed the app, or the Bot
 * Connector answered 403/404 for the conversation. Answers whether they were connected.
 */
export async function disconnect(trx: Kysely<Database>, userId: string, reason: string): Promise<boolean> {
  const at = now();
  const result = await trx
    .updateTable('teams_conversations')
    .set({ removed_at: at, removed_reason: reason, updated_at: at })
    .where('user_id', '=', userId)
    .where('removed_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** The person's live conversation with the bot, or undefined when they have not added BTalk. */
export function conversationOf(
  db: Kysely<Database>,
  userId: string,
): Promise<TeamsConversationRow | undefined> {
  return db
    .selectFrom('teams_conversations')
    .selectAll()
    .where('user_id', '=', userId)
    .where('removed_at', 'is', null)
    .executeTakeFirst();
}

/** Whether the person has added BTalk in Teams (SPEC's `user_enable`). */
export async function isTeamsConnected(db: Kysely<Database>, userId: string): Promise<boolean> {
  return (await conversationOf(db, userId)) !== undefined;
}
