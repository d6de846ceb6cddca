import { describe, expect, it } from 'vitest';
import { plainTextOf } from './plainText.ts';
import { matchRanges, searchTerms, snippetOf } from './searchIndex.ts';

describe('plainTextOf', () => {
  it('keeps what a reader sees of Markdown', () => {
    expect(
      plainTextOf(
        [
          '# Weekly **update**',
          '> quoted _line_',
          '- [x] done item',
          '1. first ~~old~~',
          '![diagram](https://example.com/a.png "title") and [site](https://example.com/path_(x))',
          '```ts',
          'const a = 1;',
          '```',
          '| a | b |',
          '|---|:-:|',
          '| 1 | 2 |',
          '<b>bold</b> &amp; &lt;tag&gt; <!-- hidden -->',
          'ping @[สมชาย ใจดี](user:0193a4b2-7c1d-7e8f-9a0b-1c2d3e4f5a6b) \\*not emphasis\\*',
        ].join('\n'),
      ),
    ).toBe(
      'Weekly update quoted line done item first old diagram and site const a = 1; a b 1 2 bold & <tag> ping @สมชาย ใจดี not emphasis',
    );
  });

  it('keeps punctuation inside words and drops control and direction characters', () => {
    expect(plainTextOf('C:\\temp\\reports 100%_off snake_case_name')).toBe(
      'C:\\temp\\reports 100%_off snake_case_name',
    );
    expect(plainTextOf('a\u202Eb\u0000c\r\nd')).toBe('a b c d');
  });
});

describe('searchTerms', () => {
  it('drops punctuation around words, splits at colons, keeps the rest as written', () => {
    expect(searchTerms('Re: "Budget" (draft) [x] a:b')).toEqual(['re', 'budget', 'draft', 'x', 'a', 'b']);
    expect(searchTerms('100%_off c:\\temp #42 @somchai ":"')).toEqual([
      '100%_off',
      'c',
      '\\temp',
      '#42',
      '@somchai',
      '"',
    ]);
    expect(searchTerms('   ')).toEqual([]);
  });
});

describe('snippetOf', () => {
  it('marks every occurrence, merging overlaps, in the snippet’s own offsets', () => {
    expect(matchRanges('Budget budgets BUDGET', ['budget', 'dget'])).toEqual([
      { start: 0, end: 6 },
      { start: 7, end: 13 },
      { start: 15, end: 21 },
    ]);
    // A one-letter word is marked where it stands alone only.
    expect(matchRanges('a plan: a:b ratio', ['a', 'b'])).toEqual([
      { start: 0, end: 1 },
      { start: 8, end: 9 },
      { start: 10, end: 11 },
    ]);
    const body = `${'word '.repeat(40)}needle ${'tail '.repeat(60)}`;
    const { snippet, highlights } = snippetOf(body.trim(), ['needle']);
    expect(snippet.startsWith('…word')).toBe(true);
    expect(snippet.endsWith('…')).toBe(true);
    expect(highlights.map((h) => snippet.slice(h.start, h.end))).toEqual(['needle']);
  });
});
