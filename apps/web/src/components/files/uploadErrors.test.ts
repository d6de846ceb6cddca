import { ErrorCode, UPLOAD_REFUSAL } from '@btalk/contracts/constants';
import i18next, { type TFunction } from 'i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import { HttpError, NetworkError } from '../../api/errors.ts';
import en from '../../i18n/locales/en/attachments.json';
import th from '../../i18n/locales/th/attachments.json';
import { tooLargeSentence, uploadFailureSentence } from './uploadErrors.ts';

const limits = { maxBytes: 25 * 1024 * 1024, maxFiles: 10 };
const refusal = (code: number, reason: string) => ({
  code,
  message: 'developer words (MAX_UPLOAD_BYTES, 26214400 bytes)',
  details: [{ field: 'body.file', reason }],
});

let tEn: TFunction;
let tTh: TFunction;
beforeAll(async () => {
  const i18n = i18next.createInstance();
  await i18n.init({
    resources: { en: { attachments: en }, th: { attachments: th } },
    lng: 'en',
    ns: ['attachments'],
  });
  tEn = i18n.getFixedT('en', 'attachments');
  tTh = i18n.getFixedT('th', 'attachments');
});

describe('upload refusals in words', () => {
  it('says a file is too large with the limit in MB, never a variable name or a byte count', () => {
    const sentence = uploadFailureSentence(
      refusal(ErrorCode.tooLarge, UPLOAD_REFUSAL.tooLarge),
      tEn,
      limits,
      'en',
    );
    expect(sentence).toBe('This file is larger than 25 MB, the largest allowed.');
    expect(tooLargeSentence(tEn, limits, 'en')).toBe(sentence);
    // The same from a proxy's bare 413, and in Thai.
    expect(uploadFailureSentence(new HttpError(413, '<html>'), tEn, limits, 'en')).toBe(sentence);
    expect(
      uploadFailureSentence(refusal(ErrorCode.tooLarge, UPLOAD_REFUSAL.tooLarge), tTh, limits, 'th'),
    ).toMatch(/^ไฟล์นี้มีขนาดใหญ่กว่า 25 MB ซึ่งเป็นขนาดสูงสุดที่อนุญาต$/);
  });

  it('words every refusal the server gives by its reason', () => {
    const say = (code: number, reason: string) =>
      uploadFailureSentence(refusal(code, reason), tEn, limits, 'en');
    expect(say(ErrorCode.validation, UPLOAD_REFUSAL.refusedType)).toBe('Files of this type are not allowed.');
    expect(say(ErrorCode.validation, UPLOAD_REFUSAL.empty)).toBe('This file is empty.');
    expect(say(ErrorCode.tooLarge, UPLOAD_REFUSAL.tooMany)).toBe('Attach at most 10 files at once.');
    expect(say(ErrorCode.quotaExceeded, UPLOAD_REFUSAL.unpostedFiles)).toMatch(
      /^You have too many uploaded files/,
    );
    expect(say(ErrorCode.quotaExceeded, UPLOAD_REFUSAL.unpostedBytes)).toMatch(/take too much space/);
    for (const reason of Object.values(UPLOAD_REFUSAL)) {
      const sentence = say(ErrorCode.validation, reason);
      expect(sentence).not.toMatch(/[A-Z_]{5,}|\d{4,}|uploadErrors/);
      expect(uploadFailureSentence(refusal(ErrorCode.validation, reason), tTh, limits, 'th')).toMatch(
        /[\u0E00-\u0E7F]/,
      );
    }
  });

  it('words other failures by their kind', () => {
    expect(uploadFailureSentence(new NetworkError('offline'), tEn, limits, 'en')).toBe(
      'The file could not be sent. Check your connection, then try again.',
    );
    expect(uploadFailureSentence({ code: ErrorCode.forbidden, message: 'x' }, tEn, limits, 'en')).toBe(
      'You cannot add files to this topic.',
    );
    expect(uploadFailureSentence(new Error('boom'), tEn, limits, 'en')).toBe(
      'The file could not be uploaded. Try again.',
    );
  });
});
