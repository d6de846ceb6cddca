import type { RefusedFileTypes, RefusedFileTypesUpdate } from '@btalk/contracts';
import type { ApiClient } from './client.ts';

/** `/api/admin/uploads`: the administrators' upload settings (which file types uploads refuse). */
export function uploadSettingsApi(client: ApiClient) {
  return {
    /** The refused file types, and who last changed them. */
    refusedTypes: () => client.get<RefusedFileTypes>('/admin/uploads/refused-types'),
    /** Replaces the whole list of refused file types. */
    setRefusedTypes: (update: RefusedFileTypesUpdate) =>
      client.request<RefusedFileTypes>('put', '/admin/uploads/refused-types', { body: update }),
  };
}
