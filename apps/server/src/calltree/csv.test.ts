import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import { neutraliseFormulae, previewTreeCsv, timeInZone, toCsv } from './csv.ts';

/** The cells of an export as a spreadsheet reads them (RFC 4180). */
const cellsOf = (csv: string) => Papa.parse<string[]>(csv, { skipEmptyLines: true }).data;

/** Whether some line of a cell (splitting where any program might) would start a formula. */
const runsAsFormula = (cell: string) =>
  cell
    .split(/\r\n|[\r\n\v\f\u0085\u2028\u2029]/)
    .some((line) => /^[\s\u3000]*[=+\-@\uff1d\uff0b\uff0d\uff20]/.test(line)) || /^[\t\r]/.test(cell);

describe('CSV exports', () => {
  const hostile = [
    '=1+1',
    "=cmd|' /C calc'!A0",
    '\n=HYPERLINK("https://evil.example","click")',
    '=1+1\n=2+2',
    '=1+1\u2028more',
    'a\u2028=1',
    'a\r\n@SUM(A1)',
    '+1',
    '-1',
    '@SUM(A1)',
    '\t=1',
    '\r=1',
    '   =1',
    '\u3000=1',
    '\uff1d1+1',
    '\uff0b1',
    '\uff0d1',
    '\uff20SUM(A1)',
  ];

  it.each(hostile)('neutralises every line that starts a formula: %j', (note) => {
    const csv = toCsv(['person', 'note'], [['Somchai', note]]);
    const [, row] = cellsOf(csv);
    expect(row).toHaveLength(2);
    expect(runsAsFormula(row![1]!)).toBe(false);
    // Nothing is lost: only quotes are added.
    expect(row![1]!.replaceAll("'", '')).toBe(note.replaceAll("'", ''));
  });

  it('neutralises any text cell, names and headers too, and keeps line breaks inside quotes', () => {
    const csv = toCsv(
      ['=person', 'note', 'escalations'],
      [
        ['=Evil Name', 'line 1\r\nline 2', 2],
        ['Malee', null, 0],
      ],
    );
    expect(csv).toBe('\'=person,note,escalations\r\n\'=Evil Name,"line 1\r\nline 2",2\r\nMalee,,0\r\n');
    expect(cellsOf(csv)).toEqual([
      ["'=person", 'note', 'escalations'],
      ["'=Evil Name", 'line 1\r\nline 2', '2'],
      ['Malee', '', '0'],
    ]);
  });

  it('quotes commas, quotes, U+2028 and edge blanks, and leaves plain text alone', () => {
    expect(toCsv(['a'], [['x,y'], ['say "hi"'], ['a\u2028b'], [' pad'], ['plain'], ['a=b']])).toBe(
      'a\r\n"x,y"\r\n"say ""hi"""\r\n"a\u2028b"\r\n" pad"\r\nplain\r\na=b\r\n',
    );
    expect(neutraliseFormulae('user@example.org')).toBe('user@example.org');
    expect(neutraliseFormulae('hurt ankle, need help')).toBe('hurt ankle, need help');
  });

  it('reads back an exported tree whose addresses start like a formula', () => {
    const people = [
      { id: 'u1', email: '-boss@example.org', displayName: 'Boss', disabled: false },
      { id: 'u2', email: 'staff@example.org', displayName: 'Staff', disabled: false },
    ];
    const exported = toCsv(
      ['email', 'manager email'],
      [
        ['-boss@example.org', ''],
        ['staff@example.org', '-boss@example.org'],
      ],
    );
    const preview = previewTreeCsv(exported, people);
    expect(preview.errorCount).toBe(0);
    expect(preview.members.get('u2')).toBe('u1');
  });
});

describe('times in the organisation time zone', () => {
  it('writes an instant as the wall clock of the zone, across dates and daylight saving', () => {
    expect(timeInZone('2026-11-25T17:30:05.000Z', 'Asia/Bangkok')).toBe('2026-11-26 00:30:05');
    expect(timeInZone('2026-07-01T00:00:00Z', 'Europe/London')).toBe('2026-07-01 01:00:00');
    expect(timeInZone('2026-01-01T00:00:00Z', 'Europe/London')).toBe('2026-01-01 00:00:00');
    expect(timeInZone('2026-03-01T12:00:00+07:00', 'UTC')).toBe('2026-03-01 05:00:00');
    expect(timeInZone(null, 'Asia/Bangkok')).toBeNull();
  });
});
