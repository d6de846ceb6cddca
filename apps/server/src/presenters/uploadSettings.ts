import type { RefusedFileTypes } from '@btalk/contracts';
import type { RefusedTypes } from '../files/refusedTypes.ts';

/** The refused file types as the administrators' screen shows them, with who last changed them. */
export function presentRefusedFileTypes(
  refused: RefusedTypes,
  updatedBy: { id: string; display_name: string } | undefined,
): RefusedFileTypes {
  return {
    extensions: [...refused.extensions].sort(),
    source: refused.row ? 'administrator' : 'default',
    updatedAt: refused.row?.updated_at ?? null,
    updatedBy: updatedBy ? { id: updatedBy.id, displayName: updatedBy.display_name } : null,
  };
}
