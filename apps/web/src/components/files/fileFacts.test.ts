import { describe, expect, it } from 'vitest';
import { fileKind, formatFileSize } from './fileFacts.ts';

describe('file facts', () => {
  it('tells a PDF by the type the server found in its content, and the others by type or name', () => {
    expect(fileKind({ contentType: 'application/pdf', fileName: 'scan' })).toBe('pdf');
    // A name that says PDF with something else inside is only a file.
    expect(fileKind({ contentType: 'application/octet-stream', fileName: 'invoice.pdf' })).toBe('other');
    expect(
      fileKind({
        contentType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
        fileName: 'x',
      }),
    ).toBe('document');
    expect(fileKind({ contentType: 'application/octet-stream', fileName: 'รายงาน.XLSX' })).toBe(
      'spreadsheet',
    );
    expect(fileKind({ contentType: 'application/octet-stream', fileName: 'data.csv' })).toBe('spreadsheet');
    expect(fileKind({ contentType: 'application/zip', fileName: 'photos' })).toBe('archive');
    expect(fileKind({ contentType: 'application/octet-stream', fileName: 'deck.pptx' })).toBe('presentation');
    expect(fileKind({ contentType: 'application/octet-stream', fileName: 'notes' })).toBe('other');
  });

  it('writes sizes in KB, MB and GB in the reader’s language, never as a count of bytes past 1 KB', () => {
    expect(formatFileSize(512, 'en')).toBe('512 bytes');
    expect(formatFileSize(2048, 'en')).toBe('2 KB');
    expect(formatFileSize(25 * 1024 * 1024, 'en')).toBe('25 MB');
    expect(formatFileSize(2.45 * 1024 * 1024, 'en')).toBe('2.5 MB');
    expect(formatFileSize(3 * 1024 ** 3, 'en')).toBe('3 GB');
    expect(formatFileSize(25 * 1024 * 1024, 'th')).toBe('25 MB');
    expect(formatFileSize(512, 'th')).toBe('512 ไบต์');
    expect(formatFileSize(1_288_490_189, 'en')).toBe('1.2 GB');
  });
});
