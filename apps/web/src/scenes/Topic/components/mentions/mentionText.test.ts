import { describe, expect, it } from 'vitest';
import {
  applyEdit,
  EMPTY_DRAFT,
  findChange,
  fromMarkup,
  insertMention,
  type MentionDraft,
  mentionIds,
  mentionQueryAt,
  normaliseDraft,
  toMarkup,
} from './mentionText.ts';

const somchai = { id: 'u-1', displayName: 'Somchai Jaidee' };
const thai = { id: 'u-2', displayName: 'สมชาย ใจดี' };

/** Types `typed` at the end of the draft, as the text area would report it. */
function type(draft: MentionDraft, typed: string) {
  const text = draft.text + typed;
  return applyEdit(draft, text, text.length).draft;
}

/** "Hi @Somchai Jaidee and @สมชาย ใจดี " built by picking both. */
function twoMentions(): MentionDraft {
  let d = type(EMPTY_DRAFT, 'Hi @Som');
  d = insertMention(d, 3, d.text.length, somchai).draft;
  d = type(d, 'and @สม');
  return insertMention(d, d.text.length - 3, d.text.length, thai).draft;
}

describe('the @word being typed', () => {
  it('is found before the caret, in any script', () => {
    expect(mentionQueryAt({ text: 'hello @ka', mentions: [] }, 9)).toEqual({ start: 6, query: 'ka' });
    expect(mentionQueryAt({ text: '@', mentions: [] }, 1)).toEqual({ start: 0, query: '' });
    expect(mentionQueryAt({ text: 'ถึง @สมช', mentions: [] }, 8)).toEqual({ start: 4, query: 'สมช' });
    expect(mentionQueryAt({ text: 'mail a@b', mentions: [] }, 8)).toBeNull();
    expect(mentionQueryAt({ text: 'hello @ka there', mentions: [] }, 15)).toBeNull();
  });

  it('is never a mention already picked', () => {
    const d = insertMention({ text: '@Som', mentions: [] }, 0, 4, { id: 'u', displayName: 'Somchai' }).draft;
    // Backspace takes the space after the name: the caret sits at the end of "@Somchai".
    expect(mentionQueryAt({ text: '@Somchai', mentions: d.mentions }, 8)).toBeNull();
  });
});

describe('picking a person', () => {
  it('shows their name, keeps the mention beside the text and writes the markup on send', () => {
    const d = twoMentions();
    expect(d.text).toBe('Hi @Somchai Jaidee and @สมชาย ใจดี ');
    expect(d.text).not.toContain('@[');
    expect(toMarkup(d)).toBe('Hi @[Somchai Jaidee](user:u-1) and @[สมชาย ใจดี](user:u-2) ');
    expect(mentionIds(d)).toEqual(['u-1', 'u-2']);
  });

  it('takes brackets out of a name, as the markup cannot hold them', () => {
    const d = insertMention(EMPTY_DRAFT, 0, 0, { id: 'u-3', displayName: 'Kanya [R]' }).draft;
    expect(d.text).toBe('@Kanya R ');
    expect(toMarkup(d)).toBe('@[Kanya R](user:u-3) ');
  });

  it('moves the mentions after the place picked in', () => {
    const d = twoMentions();
    // A new @word typed at the start of the text.
    const typed = applyEdit(d, `@Ka${d.text}`, 3).draft;
    const picked = insertMention(typed, 0, 3, { id: 'u-4', displayName: 'Kanya' });
    expect(picked.draft.text).toBe('@Kanya Hi @Somchai Jaidee and @สมชาย ใจดี ');
    expect(picked.caret).toBe(7);
    expect(toMarkup(picked.draft)).toBe(
      '@[Kanya](user:u-4) Hi @[Somchai Jaidee](user:u-1) and @[สมชาย ใจดี](user:u-2) ',
    );
  });
});

describe('editing around mentions', () => {
  it('keeps a mention when text is typed or deleted before or after it', () => {
    const d = twoMentions();
    const before = applyEdit(d, `Oh, ${d.text}`, 4).draft;
    expect(toMarkup(before)).toBe('Oh, Hi @[Somchai Jaidee](user:u-1) and @[สมชาย ใจดี](user:u-2) ');
    const after = type(before, 'please');
    expect(toMarkup(after)).toBe('Oh, Hi @[Somchai Jaidee](user:u-1) and @[สมชาย ใจดี](user:u-2) please');
    // Delete "Hi " (before the first mention): both move back.
    const cut = applyEdit(after, after.text.replace('Hi ', ''), 4).draft;
    expect(toMarkup(cut)).toBe('Oh, @[Somchai Jaidee](user:u-1) and @[สมชาย ใจดี](user:u-2) please');
    // Typing right after a name (no space) keeps it.
    const glued = applyEdit(d, d.text.replace('Jaidee ', 'Jaidee! '), 19).draft;
    expect(toMarkup(glued)).toBe('Hi @[Somchai Jaidee](user:u-1)! and @[สมชาย ใจดี](user:u-2) ');
  });

  it('takes the whole mention away when a deletion reaches into it', () => {
    const d = twoMentions();
    // Backspace at the end of "@Somchai Jaidee": the text area took one letter, the draft takes the name.
    const backspace = applyEdit(d, d.text.replace('Jaidee ', 'Jaide '), 17);
    expect(backspace.draft.text).toBe('Hi  and @สมชาย ใจดี ');
    expect(backspace.caret).toBe(3);
    expect(toMarkup(backspace.draft)).toBe('Hi  and @[สมชาย ใจดี](user:u-2) ');
    // Delete (forward) at the "@": the same.
    const forward = applyEdit(d, d.text.replace('@Somchai', 'Somchai'), 3);
    expect(forward.draft.text).toBe('Hi  and @สมชาย ใจดี ');
    // A selection from inside the first name to inside the second, replaced by a letter: both go.
    const from = d.text.indexOf('chai');
    const to = d.text.indexOf('ใจดี');
    const replaced = applyEdit(d, `${d.text.slice(0, from)}x${d.text.slice(to)}`, from + 1);
    expect(replaced.draft.text).toBe('Hi x ');
    expect(replaced.draft.mentions).toEqual([]);
    expect(replaced.caret).toBe(4);
  });

  it('leaves the letters as text when typing inside a name', () => {
    const d = twoMentions();
    const inside = applyEdit(d, d.text.replace('Somchai', 'Somxchai'), 8).draft;
    expect(inside.text).toBe('Hi @Somxchai Jaidee and @สมชาย ใจดี ');
    expect(toMarkup(inside)).toBe('Hi @Somxchai Jaidee and @[สมชาย ใจดี](user:u-2) ');
  });

  it('keeps mentions through a paste, and a pasted "@[...]" stays text', () => {
    const d = twoMentions();
    const at = d.text.indexOf(' and');
    const pasted = ' (@[Fake](user:x), see https://example.com)';
    const next = d.text.slice(0, at) + pasted + d.text.slice(at);
    const p = applyEdit(d, next, at + pasted.length).draft;
    expect(p.mentions.map((m) => m.id)).toEqual(['u-1', 'u-2']);
    const markup = toMarkup(p);
    expect(markup).toContain('(@\\[Fake](user:x), see');
    expect(fromMarkup(markup)).toEqual(p);
  });

  it('tells which of two same letters went by the caret', () => {
    expect(findChange('aa', 'a', 0)).toEqual({ start: 0, end: 1, inserted: '' });
    expect(findChange('aa', 'a', 1)).toEqual({ start: 1, end: 2, inserted: '' });
    // A caret that does not fit falls back to the common start and end.
    expect(findChange('abc', 'abXc', 0)).toEqual({ start: 2, end: 2, inserted: 'X' });
  });
});

describe('markup and back', () => {
  it('reads a stored body into names (editing shows no markup) and writes it back the same', () => {
    const body = 'Hi @[Somchai Jaidee](user:u-1), **see** @[สมชาย ใจดี](user:u-2)!\nmail a@b.c';
    const d = fromMarkup(body);
    expect(d.text).toBe('Hi @Somchai Jaidee, **see** @สมชาย ใจดี!\nmail a@b.c');
    expect(d.mentions).toEqual([
      { id: 'u-1', name: 'Somchai Jaidee', start: 3 },
      { id: 'u-2', name: 'สมชาย ใจดี', start: 28 },
    ]);
    expect(toMarkup(d)).toBe(body);
  });

  it('drops stored mentions that no longer match their text', () => {
    const d = twoMentions();
    const stale = { text: d.text.replace('Somchai', 'Someone'), mentions: d.mentions };
    expect(normaliseDraft(stale).mentions.map((m) => m.id)).toEqual(['u-2']);
    expect(normaliseDraft(d)).toEqual(d);
  });
});
