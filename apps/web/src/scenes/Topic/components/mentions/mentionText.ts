/**
 * The text being written with its picked mentions. The text area shows `@Name`; each picked person
 * is kept beside the text with where their name starts, and the API's `@[Name](user:<id>)` markup is
 * made only when the text is sent (and read back into names when a post is edited).
 */

/** A person picked in the text: `@` + `name` starts at `start`. */
export interface PickedMention {
  /** The person's user id. */
  id: string;
  /** The name shown after the `@` (brackets taken out, as the markup cannot hold them). */
  name: string;
  /** Where the `@` is, in UTF-16 code units. */
  start: number;
}

/** The text of a composer and the people picked in it, in order, never overlapping. */
export interface MentionDraft {
  text: string;
  mentions: PickedMention[];
}

/** An empty composer. */
export const EMPTY_DRAFT: MentionDraft = { text: '', mentions: [] };

/** Where a mention ends (one past its last character). */
export function mentionEnd(m: PickedMention): number {
  return m.start + 1 + m.name.length;
}

/** The name a person is shown by in the text: brackets would end the markup's name early. */
export function mentionName(displayName: string): string {
  return displayName.replace(/[[\]\n]/g, '').trim();
}

// The server's token (apps/server/src/commands/mentions.ts), with the name and id captured.
const TOKEN = /@\[([^\]\n]{1,200})\]\(user:([A-Za-z0-9-]{1,64})\)/g;

/** Plain text as it goes into the markup: a typed `@[` is escaped so it never reads as a mention. */
function escapePlain(text: string): string {
  return text.replace(/@\[/g, '@\\[');
}

function unescapePlain(text: string): string {
  return text.replace(/@\\\[/g, '@[');
}

/** The Markdown the API takes: each picked mention as `@[Name](user:<id>)`. */
export function toMarkup(draft: MentionDraft): string {
  let out = '';
  let at = 0;
  for (const m of draft.mentions) {
    out += escapePlain(draft.text.slice(at, m.start));
    out += `@[${m.name}](user:${m.id})`;
    at = mentionEnd(m);
  }
  return out + escapePlain(draft.text.slice(at));
}

/** A stored body read back into names and picked mentions (editing a post shows no markup). */
export function fromMarkup(markup: string): MentionDraft {
  let text = '';
  const mentions: PickedMention[] = [];
  let at = 0;
  for (const match of markup.matchAll(TOKEN)) {
    text += unescapePlain(markup.slice(at, match.index));
    const name = match[1]!;
    mentions.push({ id: match[2]!, name, start: text.length });
    text += `@${name}`;
    at = match.index + match[0].length;
  }
  return { text: text + unescapePlain(markup.slice(at)), mentions };
}

/** The ids of the people picked, once each, in order. */
export function mentionIds(draft: MentionDraft): string[] {
  return [...new Set(draft.mentions.map((m) => m.id))];
}

/**
 * Keeps only mentions whose text is still `@Name` where they say, in order and apart: a draft read
 * from storage or written by an older version cannot name the wrong words.
 */
export function normaliseDraft(draft: MentionDraft): MentionDraft {
  const mentions: PickedMention[] = [];
  let after = 0;
  for (const m of [...draft.mentions].sort((a, b) => a.start - b.start)) {
    if (m.start < after || draft.text.slice(m.start, mentionEnd(m)) !== `@${m.name}`) continue;
    mentions.push(m);
    after = mentionEnd(m);
  }
  return { text: draft.text, mentions };
}

/** What one change of the text area did: `before[start, end)` became `inserted`. */
interface Change {
  start: number;
  end: number;
  inserted: string;
}

/**
 * The change from `before` to `after`. The caret after the change ends the inserted text, which
 * tells apart edits that a plain comparison cannot ("aa" -> "a": which one went?).
 */
export function findChange(before: string, after: string, caret: number): Change {
  const suffix = after.length - caret;
  if (
    suffix >= 0 &&
    caret >= 0 &&
    suffix <= before.length &&
    before.slice(before.length - suffix) === after.slice(caret)
  ) {
    const limit = Math.min(caret, before.length - suffix);
    let start = 0;
    while (start < limit && before[start] === after[start]) start++;
    return { start, end: before.length - suffix, inserted: after.slice(start, caret) };
  }
  // The caret does not fit (set from code): the longest common start and end.
  let start = 0;
  const shortest = Math.min(before.length, after.length);
  while (start < shortest && before[start] === after[start]) start++;
  let tail = 0;
  while (tail < shortest - start && before[before.length - 1 - tail] === after[after.length - 1 - tail])
    tail++;
  return { start, end: before.length - tail, inserted: after.slice(start, after.length - tail) };
}

/**
 * Applies an edit of the text area to the draft. Mentions before the edit stay, those after it move;
 * deleting into a mention takes the whole mention away (Backspace after "@Somchai" removes it in
 * one go); typing inside one leaves its letters as plain text. Answers the new draft and where the
 * caret goes (different from the text area's when a mention was taken away whole).
 */
export function applyEdit(
  draft: MentionDraft,
  nextText: string,
  caret: number,
): { draft: MentionDraft; caret: number } {
  const change = findChange(draft.text, nextText, caret);
  let { start, end } = change;
  const { inserted } = change;
  const deleting = end > start;
  const kept: PickedMention[] = [];
  const removed: PickedMention[] = [];
  for (const m of draft.mentions) {
    const mEnd = mentionEnd(m);
    if (mEnd <= start || m.start >= end) kept.push(m);
    else if (deleting) removed.push(m);
    // An insertion strictly inside a mention: its name is no longer the name, so it is text now.
  }
  for (const m of removed) {
    start = Math.min(start, m.start);
    end = Math.max(end, mentionEnd(m));
  }
  const text = draft.text.slice(0, start) + inserted + draft.text.slice(end);
  const delta = inserted.length - (end - start);
  const mentions = kept.map((m) => (m.start >= end ? { ...m, start: m.start + delta } : m));
  return { draft: { text, mentions }, caret: start + inserted.length };
}

/** The `@word` typed just before the caret (not a picked mention), or null. */
export function mentionQueryAt(draft: MentionDraft, caret: number): { start: number; query: string } | null {
  const before = draft.text.slice(0, caret);
  // Letters of any script (Thai names have no spaces between words), up to 40, no brackets.
  const match = /(^|\s)@([^\s@[\]()]{0,40})$/u.exec(before);
  if (!match) return null;
  const start = caret - match[2]!.length - 1;
  if (draft.mentions.some((m) => m.start <= start && start < mentionEnd(m))) return null;
  return { start, query: match[2]! };
}

/**
 * Puts a picked person where the `@word` was (`from` to the caret), with a space after: answers the
 * draft and the caret after the space.
 */
export function insertMention(
  draft: MentionDraft,
  from: number,
  caret: number,
  person: { id: string; displayName: string },
): { draft: MentionDraft; caret: number } {
  const name = mentionName(person.displayName);
  const token = `@${name} `;
  const mention: PickedMention = { id: person.id, name, start: from };
  const delta = token.length - (caret - from);
  const mentions = [
    ...draft.mentions.filter((m) => mentionEnd(m) <= from),
    mention,
    ...draft.mentions.filter((m) => m.start >= caret).map((m) => ({ ...m, start: m.start + delta })),
  ];
  return {
    draft: { text: draft.text.slice(0, from) + token + draft.text.slice(caret), mentions },
    caret: from + token.length,
  };
}
