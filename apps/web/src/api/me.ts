import type { User } from '@btalk/contracts';
import type { ApiClient } from './client.ts';

/** Query key of the signed-in person. */
export const ME_QUERY_KEY = ['me'] as const;

/** `/api/me`: the signed-in person. */
export function meApi(client: ApiClient) {
  return {
    /** The signed-in person (rejects with code 4010 without a session). */
    get: () => client.get<User>('/me'),
  };
}
