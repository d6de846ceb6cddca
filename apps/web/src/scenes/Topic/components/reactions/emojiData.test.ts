import { ReactionEmoji } from '@btalk/contracts';
import english from 'emoji-picker-react/data/emojis-en';
import thai from 'emoji-picker-react/data/emojis-th';
import { describe, expect, it } from 'vitest';
import { loadThaiEmojiData, withEnglishNames } from './emojiData.ts';

/** The emoji a dataset's unified code (`1f44d-1f3fd`) stands for. */
const fromUnified = (unified: string) =>
  String.fromCodePoint(...unified.split('-').map((hex) => Number.parseInt(hex, 16)));

describe('the emoji picker’s data', () => {
  it('gives only emojis the API takes as a reaction (every one, every skin tone)', () => {
    const refused: string[] = [];
    let count = 0;
    for (const list of Object.values(english.emojis)) {
      for (const emoji of list) {
        for (const unified of [emoji.u, ...(emoji.v ?? [])]) {
          count++;
          if (!ReactionEmoji.safeParse(fromUnified(unified)).success) refused.push(unified);
        }
      }
    }
    expect(count).toBeGreaterThan(3000);
    expect(refused).toEqual([]);
  });

  it('in Thai, names each emoji in Thai (shown) and finds it by its English names too', async () => {
    const merged = withEnglishNames(thai, english);
    const thumbs = Object.values(merged.emojis)
      .flat()
      .find((e) => e.u === '1f44d');
    const names = thumbs?.n ?? [];
    // The picker shows an emoji's last name.
    expect(names.at(-1)).toBe(thai.emojis.smileys_people!.find((e) => e.u === '1f44d')!.n.at(-1));
    expect(names).toContain('thumbs up');
    expect(names.some((n) => /[\u0E00-\u0E7F]/.test(n))).toBe(true);
    expect(merged.categories).toEqual(thai.categories);
    const loaded = await loadThaiEmojiData();
    expect(Object.keys(loaded.emojis)).toEqual(Object.keys(thai.emojis));
  });
});
