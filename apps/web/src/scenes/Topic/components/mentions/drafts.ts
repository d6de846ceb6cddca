import { useEffect, useRef, useState } from 'react';
import { EMPTY_DRAFT, type MentionDraft, normaliseDraft } from './mentionText.ts';

/**
 * Unsent text kept in localStorage until it is sent: per person (another person signing in on the
 * same browser never sees it) and per place (a topic's composer, a post's comment box).
 */
const PREFIX = 'btalk_draft:';

/** Where a draft belongs: a topic's composer or the comment box under a post. */
export type DraftScope = `topic:${string}` | `comments:${string}`;

/** The localStorage key of one person's draft in one place. */
export function draftKey(personId: string, scope: DraftScope): string {
  return `${PREFIX}${personId}:${scope}`;
}

/** The saved draft, or null (none, unreadable or not in the expected shape). */
export function readDraft(personId: string, scope: DraftScope): MentionDraft | null {
  let raw: string | null;
  try {
    raw = localStorage.getItem(draftKey(personId, scope));
  } catch {
    return null;
  }
  if (!raw) return null;
  try {
    const value = JSON.parse(raw) as Partial<MentionDraft>;
    if (typeof value.text !== 'string' || value.text === '' || !Array.isArray(value.mentions)) return null;
    const mentions = value.mentions.filter(
      (m) =>
        typeof m === 'object' &&
        m !== null &&
        typeof m.id === 'string' &&
        typeof m.name === 'string' &&
        Number.isInteger(m.start),
    );
    return normaliseDraft({ text: value.text, mentions });
  } catch {
    return null;
  }
}

/** Saves a draft; an empty one is removed. A full or refused storage loses only the draft. */
export function writeDraft(personId: string, scope: DraftScope, draft: MentionDraft): void {
  try {
    if (draft.text.trim() === '') localStorage.removeItem(draftKey(personId, scope));
    else localStorage.setItem(draftKey(personId, scope), JSON.stringify(draft));
  } catch {
    // Private browsing or a full storage: the text stays in the composer, only not kept.
  }
}

/** Whether the person has an unsent draft in a place. */
export function hasDraft(personId: string, scope: DraftScope): boolean {
  return readDraft(personId, scope) !== null;
}

/**
 * The draft of one place, kept as it changes and restored when the place opens again. The person
 * may be known only after the first draw (their profile loads): their draft comes then, unless
 * something was typed meanwhile.
 */
export function useDraft(personId: string | undefined, scope: DraftScope) {
  const [draft, setDraft] = useState<MentionDraft>(
    () => (personId ? readDraft(personId, scope) : null) ?? EMPTY_DRAFT,
  );
  const restoredFor = useRef(personId);
  useEffect(() => {
    if (!personId || restoredFor.current === personId) return;
    restoredFor.current = personId;
    const saved = readDraft(personId, scope);
    if (saved) setDraft((current) => (current.text === '' ? saved : current));
  }, [personId, scope]);
  useEffect(() => {
    if (personId && restoredFor.current === personId) writeDraft(personId, scope, draft);
  }, [personId, scope, draft]);
  return [draft, setDraft] as const;
}
