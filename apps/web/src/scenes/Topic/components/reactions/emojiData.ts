import type { EmojiData } from 'emoji-picker-react';

/** The part of a picker dataset read here (each locale's module declares its own copy of the type). */
interface Dataset {
  emojis: Record<string, { n: string[]; u: string }[]>;
}

/**
 * The picker's Thai dataset with each emoji's English names too: the name shown is Thai (the picker
 * shows an emoji's last name), and a search finds it by its Thai or its English name, as people
 * here type either.
 */
export function withEnglishNames<T extends Dataset>(thai: T, english: Dataset): T {
  const englishNames = new Map<string, string[]>();
  for (const list of Object.values(english.emojis)) {
    for (const emoji of list) englishNames.set(emoji.u, emoji.n);
  }
  const emojis: Dataset['emojis'] = {};
  for (const [category, list] of Object.entries(thai.emojis)) {
    emojis[category] = list.map((emoji) => ({
      ...emoji,
      n: [...new Set([...(englishNames.get(emoji.u) ?? []), ...emoji.n])],
    }));
  }
  return { ...thai, emojis };
}

/** Loads the Thai dataset with English names (two chunks, on the picker's first open in Thai). */
export async function loadThaiEmojiData(): Promise<EmojiData> {
  const [thai, english] = await Promise.all([
    import('emoji-picker-react/data/emojis-th'),
    import('emoji-picker-react/data/emojis-en'),
  ]);
  return withEnglishNames(thai.default, english.default) as unknown as EmojiData;
}
