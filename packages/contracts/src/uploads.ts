import { z } from 'zod';
import { MAX_REFUSED_EXTENSIONS, REFUSED_EXTENSION_PATTERN } from './uploadRules.ts';

/** An extension of the refused list; a leading dot and capitals are accepted and dropped. */
const RefusedExtension = z
  .string()
  .trim()
  .transform((v) => v.replace(/^\./, '').toLowerCase())
  .pipe(z.string().regex(REFUSED_EXTENSION_PATTERN, { message: 'must be letters and digits, such as exe' }));

/** `GET /api/admin/uploads/refused-types` answer: the file types uploads refuse. */
export const RefusedFileTypes = z.object({
  /** Extensions without the dot, sorted; a file is refused by its name's last extension or its content's type. */
  extensions: z.array(z.string()),
  /** `default`: UPLOAD_REFUSED_EXTENSIONS (no administrator changed it); `administrator`: an administrator's list. */
  source: z.enum(['default', 'administrator']),
  /** When an administrator last changed the list (ISO-8601); null for the default. */
  updatedAt: z.string().nullable(),
  /** Who last changed it; null for the default. */
  updatedBy: z.object({ id: z.string(), displayName: z.string() }).nullable(),
});
export type RefusedFileTypes = z.infer<typeof RefusedFileTypes>;

/** `PUT /api/admin/uploads/refused-types` request: the whole new list (an empty list refuses nothing). */
export const RefusedFileTypesUpdate = z.object({
  /** Extensions, e.g. `exe` or `.EXE`; stored in lower case without the dot, duplicates once. */
  extensions: z.array(RefusedExtension).max(MAX_REFUSED_EXTENSIONS),
});
export type RefusedFileTypesUpdate = z.infer<typeof RefusedFileTypesUpdate>;
