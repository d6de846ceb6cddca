import type { ImportCallTreeRow } from '@btalk/contracts';
import Papa from 'papaparse';
import { invalid } from '../http/errors.ts';
import { wallClock } from '../wallClock.ts';

/** A person the import can match an e-mail address to. */
export interface ImportablePerson {
  id: string;
  email: string;
  displayName: string;
  disabled: boolean;
}

/** The checked rows of an imported tree, and the members they make when no row has an error. */
export interface ImportPreview {
  rows: ImportCallTreeRow[];
  errorCount: number;
  members: Map<string, string | null>;
}

const EMAIL_HEADERS = ['email', 'e-mail', 'email address'];
const MANAGER_HEADERS = ['manager email', 'manager_email', 'manager e-mail', 'manager'];

const norm = (s: string) => s.trim().toLowerCase();

/**
 * Parses and checks a tree CSV (`email,manager email`; empty manager = at the top). Each row gets the
 * person it names and, when something is wrong, an error the admin can act on; nothing is applied here.
 */
export function previewTreeCsv(csv: string, people: ImportablePerson[]): ImportPreview {
  const parsed = Papa.parse<string[]>(csv.replace(/^\uFEFF/, ''), { skipEmptyLines: 'greedy' });
  const [header, ...body] = parsed.data;
  const columns = (header ?? []).map(norm);
  const emailAt = columns.findIndex((c) => EMAIL_HEADERS.includes(c));
  const managerAt = columns.findIndex((c) => MANAGER_HEADERS.includes(c));
  if (emailAt < 0 || managerAt < 0) {
    throw invalid(
      'body.csv',
      'the first row must name the columns "email" and "manager email" (export a tree to see the format)',
    );
  }
  const byEmail = new Map(people.map((p) => [norm(p.email), p]));
  const firstLine = new Map<string, number>();
  const rows: ImportCallTreeRow[] = body.map((cells, i) => {
    const line = i + 2;
    const email = restoreFormula(cells[emailAt] ?? '').trim();
    const managerEmail = restoreFormula(cells[managerAt] ?? '').trim();
    const person = byEmail.get(norm(email));
    let error: string | null = null;
    if (!email) error = 'the email cell is empty';
    else if (!person) error = `no person with the e-mail address ${email} is in the directory`;
    else if (person.disabled) error = `${email} is disabled in the directory; leave them out`;
    else if (firstLine.has(norm(email)))
      error = `${email} is listed twice (first on line ${firstLine.get(norm(email))})`;
    else if (norm(managerEmail) === norm(email)) error = 'a person cannot be their own manager';
    if (email && !firstLine.has(norm(email))) firstLine.set(norm(email), line);
    return {
      line,
      email,
      managerEmail,
      userId: person?.id ?? null,
      displayName: person?.displayName ?? null,
      error,
    };
  });

  // Managers must be rows of the file, and the chain must reach the top without looping.
  const rowByEmail = new Map<string, ImportCallTreeRow>();
  for (const row of rows) if (!rowByEmail.has(norm(row.email))) rowByEmail.set(norm(row.email), row);
  for (const row of rows) {
    if (row.error || !row.managerEmail) continue;
    const manager = rowByEmail.get(norm(row.managerEmail));
    if (!manager) row.error = `the manager ${row.managerEmail} has no row of their own; add one`;
  }
  for (const row of rows) {
    if (row.error) continue;
    const chain = [row.email];
    const seen = new Set([norm(row.email)]);
    let at = row.managerEmail;
    while (at) {
      if (seen.has(norm(at))) {
        row.error = `the manager chain loops: ${[...chain, at].join(' → ')}`;
        break;
      }
      seen.add(norm(at));
      chain.push(at);
      at = rowByEmail.get(norm(at))?.managerEmail ?? '';
    }
  }
  const errorCount = rows.filter((r) => r.error).length;
  const members = new Map<string, string | null>();
  if (errorCount === 0) {
    for (const row of rows) {
      const manager = row.managerEmail ? rowByEmail.get(norm(row.managerEmail))?.userId : null;
      members.set(row.userId!, manager ?? null);
    }
  }
  return { rows, errorCount, members };
}

/** Line breaks inside a cell: CR, LF, and the ones some programs also split on (VT, FF, NEL, U+2028, U+2029). */
const LINE_BREAK = /\r\n|[\r\n\v\f\u0085\u2028\u2029]/;

/**
 * A line that a spreadsheet would run as a formula: it starts, after any blanks, with = + - @ (or
 * their full-width forms), a tab or a carriage return (OWASP "CSV injection").
 */
const FORMULA_START = /^[\s\u00a0\u3000]*[=+\-@\t\r\uff1d\uff0b\uff0d\uff20]/;

/**
 * Makes a cell text that no spreadsheet runs: a cell that starts like a formula (after blanks and
 * line breaks too) gets a leading `'`, and so does every line of it that does. Every line, not only
 * the first: a program that splits cells at line breaks (or at U+2028) would otherwise find `=...`
 * at the start of a cell.
 */
export function neutraliseFormulae(text: string): string {
  if (!FORMULA_START.test(text) && !LINE_BREAK.test(text)) return text;
  const parts = text.split(new RegExp(`(${LINE_BREAK.source})`));
  // split() with a capture group keeps the breaks at the odd indexes.
  const lines = parts
    .map((part, i) => (i % 2 === 0 && FORMULA_START.test(part) ? `'${part}` : part))
    .join('');
  return FORMULA_START.test(text) && !lines.startsWith("'") ? `'${lines}` : lines;
}

/** Undoes `neutraliseFormulae` on a cell read back from an export (one line, as e-mail addresses are). */
function restoreFormula(cell: string): string {
  return cell.startsWith("'") && FORMULA_START.test(cell.slice(1)) ? cell.slice(1) : cell;
}

/** One CSV cell: quoted when it holds a quote, a comma, a line break or leading or trailing blanks. */
function csvCell(value: string | number | null): string {
  if (value === null) return '';
  if (typeof value === 'number') return String(value);
  const text = neutraliseFormulae(value);
  return /[",]|^\s|\s$/.test(text) || LINE_BREAK.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** The UTF-8 byte-order mark: without it Excel reads a CSV file as the system's code page, and Thai breaks. */
export const UTF8_BOM = '\uFEFF';

/**
 * An ISO-8601 instant as wall-clock time in `timeZone`, `YYYY-MM-DD HH:mm:ss` (what spreadsheets
 * read as a date and time); null stays null.
 */
export function timeInZone(iso: string | null, timeZone: string): string | null {
  if (iso === null) return null;
  const part = wallClock(new Date(iso), timeZone);
  return `${part.year}-${part.month}-${part.day} ${part.hour}:${part.minute}:${part.second}`;
}

/**
 * Writes rows as CSV text (RFC 4180, CRLF line ends, a header row). Text cells are neutralised
 * against formula injection (`neutraliseFormulae`); numbers are written as they are.
 */
export function toCsv(header: string[], rows: (string | number | null)[][]): string {
  return [header, ...rows].map((row) => `${row.map(csvCell).join(',')}\r\n`).join('');
}
