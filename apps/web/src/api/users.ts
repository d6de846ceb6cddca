import type { UserPage } from '@btalk/contracts';
import type { ApiClient } from './client.ts';

/** `/api/users`: the people picker's directory search. */
export function usersApi(client: ApiClient) {
  return {
    /** People whose name, e-mail or department contains `search`, by name. */
    search: (search: string, limit = 20) => client.get<UserPage>('/users', { search, limit }),
  };
}
