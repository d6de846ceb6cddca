import { UPLOAD_REFUSAL } from '@btalk/contracts';
import type { Kysely } from 'kysely';
import type { Config } from '../config/index.ts';
import type { Database } from '../db/index.ts';
import type { UploadSettingsRow } from '../db/schema.ts';
import { AppError } from '../http/errors.ts';

/** The id of the one `upload_settings` row. */
export const UPLOAD_SETTINGS_ID = 'uploads';

/** The refused file types in force, and the administrators' row they come from (none: the default). */
export interface RefusedTypes {
  extensions: string[];
  row: UploadSettingsRow | undefined;
}

/**
 * The file types uploads refuse: the administrators' list once one of them set it, otherwise the
 * configured default (UPLOAD_REFUSED_EXTENSIONS, or executables and scripts).
 */
export async function loadRefusedTypes(
  db: Kysely<Database>,
  config: Pick<Config, 'uploads'>,
): Promise<RefusedTypes> {
  const row = await db
    .selectFrom('upload_settings')
    .selectAll()
    .where('id', '=', UPLOAD_SETTINGS_ID)
    .executeTakeFirst();
  const extensions = row
    ? (JSON.parse(row.refused_extensions) as string[])
    : config.uploads.refusedExtensions;
  return { extensions, row };
}

/**
 * The last extension of a file name, lower case without the dot ('' for none). Trailing dots and
 * blanks do not hide it: Windows drops them, so `setup.exe.` runs as `setup.exe`.
 */
export function extensionOf(fileName: string): string {
  const name = fileName.replace(/[.\s]+$/, '');
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(dot + 1).toLowerCase() : '';
}

/** The 400 of a file whose name or content is of a refused type, naming `body.file` and why. */
export function refusedTypeError(fileName: string, type: string): AppError {
  return new AppError(
    'validation',
    `${fileName}: files of type .${type} are not allowed here (an administrator refuses them); send another kind of file, or ask an administrator (File uploads settings).`,
    [{ field: 'body.file', reason: UPLOAD_REFUSAL.refusedType }],
  );
}
