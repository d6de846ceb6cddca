import { describe, expect, it } from 'vitest';
import { initialOf, initials } from './initials.ts';

describe('initials', () => {
  it('takes the first letters of the first two names, upper-cased', () => {
    expect(initials('Somchai Jaidee')).toBe('SJ');
    expect(initials('  anong   srisuk  kaew ')).toBe('AS');
    expect(initials('Prasert')).toBe('P');
    expect(initials('')).toBe('');
  });

  it('takes the first consonant of a Thai word, not a vowel written before it', () => {
    expect(initials('สมชาย ใจดี')).toBe('สจ');
    expect(initials('เกศินี แก้วใส')).toBe('กก');
    expect(initialOf('โครงการโลตัส')).toBe('ค');
    expect(initialOf('ไ')).toBe('ไ');
  });

  it('keeps a character outside the basic plane whole', () => {
    expect(initialOf('𝒜lice')).toBe('𝒜');
    expect(initialOf('😀 party')).toBe('😀');
  });
});
