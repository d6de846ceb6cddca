import type { UserPage, UserProfile } from '@btalk/contracts';
import type { ApiClient } from './client.ts';

/** `/api/users`: the one people search (the people picker, `@` mentions, the call-tree person search). */
export function usersApi(client: ApiClient) {
  return {
    /** People whose name, e-mail or department contains `search`, by name. */
    search: (search: string, limit = 20) => client.get<UserPage>('/users', { search, limit }),
    /** A person's profile card: names, job title, department, manager, phone and e-mail. */
    profile: (userId: string) => client.get<UserProfile>(`/users/${encodeURIComponent(userId)}`),
  };
}
