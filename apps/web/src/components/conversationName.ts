import type { Person, Topic } from '@btalk/contracts';

/** Whether a topic is a direct conversation. */
export function isConversation(topic: Pick<Topic, 'visibility'>): boolean {
  return topic.visibility === 'direct';
}

/** The people of a conversation other than me (all of them while I am not known yet), by name. */
export function otherParticipants(topic: Pick<Topic, 'participants'>, myId: string | undefined): Person[] {
  const people = topic.participants ?? [];
  const others = people.filter((p) => p.id !== myId);
  return others.length > 0 ? others : people;
}

/**
 * What a conversation is called for me: the other people's names (the server's title, all the
 * names, for anything else or before the participants are known).
 */
export function conversationName(
  topic: Pick<Topic, 'participants' | 'title'>,
  myId: string | undefined,
): string {
  const others = otherParticipants(topic, myId);
  return others.length > 0 ? others.map((p) => p.displayName).join(', ') : topic.title;
}
