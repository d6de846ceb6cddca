import { ErrorCode, UPLOAD_REFUSAL } from '@btalk/contracts/constants';
import type { TFunction } from 'i18next';
import { HttpError, isErrorEnvelope, NetworkError } from '../../api/errors.ts';
import { formatFileSize } from './fileFacts.ts';

/** The limits the sentences name (from the start-up configuration). */
export interface UploadLimits {
  maxBytes: number;
  maxFiles: number;
}

/** Which sentence each refusal of the server gets (its `body.file` detail's reason). */
const SENTENCE_OF_REASON: Record<string, string> = {
  [UPLOAD_REFUSAL.tooLarge]: 'uploadErrors.tooLarge',
  [UPLOAD_REFUSAL.tooMany]: 'uploadErrors.tooMany',
  [UPLOAD_REFUSAL.refusedType]: 'uploadErrors.refusedType',
  [UPLOAD_REFUSAL.empty]: 'uploadErrors.empty',
  [UPLOAD_REFUSAL.unpostedFiles]: 'uploadErrors.unpostedFiles',
  [UPLOAD_REFUSAL.unpostedBytes]: 'uploadErrors.unpostedBytes',
};

/** The sentence of a file over the largest size, e.g. "This file is larger than 25 MB, the largest allowed." */
export function tooLargeSentence(t: TFunction, limits: UploadLimits, language: string): string {
  return t('uploadErrors.tooLarge', { max: formatFileSize(limits.maxBytes, language) });
}

/**
 * Why an upload failed, as a sentence for people in their language (the `attachments` namespace's
 * `t`): never a variable name or a count of bytes. Refusals are told apart by the reason the server
 * gives, other failures by their kind.
 */
export function uploadFailureSentence(
  error: unknown,
  t: TFunction,
  limits: UploadLimits,
  language: string,
): string {
  const words = { max: formatFileSize(limits.maxBytes, language), count: limits.maxFiles };
  if (isErrorEnvelope(error)) {
    const reason = error.details?.find((d) => d.field === 'body.file')?.reason;
    const key = reason ? SENTENCE_OF_REASON[reason] : undefined;
    if (key) return t(key, words);
    if (error.code === ErrorCode.tooLarge) return t('uploadErrors.tooLarge', words);
    if (error.code === ErrorCode.forbidden || error.code === ErrorCode.notFound)
      return t('uploadErrors.notAllowed');
    if (error.code === ErrorCode.rateLimited) return t('uploadErrors.tooFast');
  }
  // A proxy in front of the server may refuse a big body before BTalk sees it.
  if (error instanceof HttpError && error.status === 413) return t('uploadErrors.tooLarge', words);
  if (error instanceof NetworkError) return t('uploadErrors.network');
  return t('uploadErrors.other');
}
