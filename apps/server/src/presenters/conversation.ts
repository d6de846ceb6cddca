import type { Person } from '@btalk/contracts';
import type { Kysely } from 'kysely';
import type { Database } from '../db/index.ts';
import { directParticipantIds } from '../policies/topic.ts';
import { loadPeople, personFrom } from './person.ts';

/**
 * A direct conversation's title: its people's names, by name. Derived each time it is shown, so a
 * renamed person is never shown by an old name.
 */
export function conversationTitle(names: string[]): string {
  return [...names].sort((a, b) => a.localeCompare(b)).join(', ');
}

/** The participants of a direct conversation from people loaded by `loadParticipantsOf`, by name. */
export function participantsOf(ids: string[], people: Map<string, Person>): Person[] {
  return ids
    .map((id) => personFrom(people, id))
    .sort((a, b) => a.displayName.localeCompare(b.displayName) || a.id.localeCompare(b.id));
}

/** The people of every direct conversation among these topics, in one query (none for other topics). */
export async function loadParticipantsOf(
  db: Kysely<Database>,
  topics: Iterable<{ direct_key: string | null }>,
): Promise<Map<string, Person>> {
  const ids = new Set<string>();
  for (const topic of topics) for (const id of directParticipantIds(topic) ?? []) ids.add(id);
  return loadPeople(db, ids);
}

/**
 * Gives the hits in direct conversations (and a topic filter naming one) their conversation's title,
 * its people's names: such a topic stores no title. One query for the conversations among them, one
 * for their people.
 */
export async function withConversationTitles<
  P extends {
    items: Array<{ topicId: string; topicTitle: string }>;
    filters?: { topic: { id: string; title: string } | null };
  },
>(db: Kysely<Database>, page: P): Promise<P> {
  const filtered = page.filters?.topic ?? null;
  const topicIds = [...new Set([...page.items.map((i) => i.topicId), ...(filtered ? [filtered.id] : [])])];
  if (topicIds.length === 0) return page;
  const conversations = await db
    .selectFrom('topics')
    .select(['id', 'direct_key'])
    .where('id', 'in', topicIds)
    .where('direct_key', 'is not', null)
    .execute();
  if (conversations.length === 0) return page;
  const people = await loadParticipantsOf(db, conversations);
  const titles = new Map(
    conversations.map((c) => [
      c.id,
      conversationTitle(participantsOf(directParticipantIds(c) ?? [], people).map((p) => p.displayName)),
    ]),
  );
  const filterTitle = filtered ? titles.get(filtered.id) : undefined;
  return {
    ...page,
    items: page.items.map((i) => {
      const title = titles.get(i.topicId);
      return title === undefined ? i : { ...i, topicTitle: title };
    }),
    ...(page.filters && filtered && filterTitle !== undefined
      ? { filters: { ...page.filters, topic: { ...filtered, title: filterTitle } } }
      : {}),
  };
}
