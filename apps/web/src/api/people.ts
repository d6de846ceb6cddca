import type { AdminPeoplePage, AdminPerson, AdminPersonUpdate } from '@btalk/contracts';
import type { ApiClient } from './client.ts';

/** `/api/admin/people`: the People screen of administrators. */
export function peopleApi(client: ApiClient) {
  return {
    /** Everyone (disabled people too) whose name, e-mail or department contains `search`, by name. */
    list: (search: string, cursor?: string, limit = 50) =>
      client.get<AdminPeoplePage>('/admin/people', { search, cursor, limit }),
    /** Gives or takes the admin role, disables (ending every session) or enables a person. */
    update: (personId: string, change: AdminPersonUpdate) =>
      client.patch<AdminPerson>(`/admin/people/${encodeURIComponent(personId)}`, change),
  };
}
