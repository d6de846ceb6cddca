/** Thai vowels written before the consonant they follow in speech (เ แ โ ใ ไ): never an initial. */
const THAI_LEADING_VOWEL = /^[\u0E40-\u0E44]$/;

/**
 * A word's initial as people write it: its first letter (a whole character, not half of a
 * surrogate pair), upper-cased; in Thai the first consonant, so "ใจดี" gives "จ" and "โครงการ" "ค".
 */
export function initialOf(word: string): string {
  const chars = Array.from(word.trim());
  const first = chars.length > 1 && THAI_LEADING_VOWEL.test(chars[0]!) ? chars[1]! : (chars[0] ?? '');
  return first.toUpperCase();
}

/** A person's initials: of their first two names ("Somchai Jaidee" "SJ", "สมชาย ใจดี" "สจ"). */
export function initials(name: string): string {
  return name.trim().split(/\s+/).filter(Boolean).slice(0, 2).map(initialOf).join('');
}
