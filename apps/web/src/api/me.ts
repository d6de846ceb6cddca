import type { Me } from '@btalk/contracts';
import type { ApiClient } from './client.ts';

/** Query key of the signed-in person. */
export const ME_QUERY_KEY = ['me'] as const;

/** `/api/me`: the signed-in person and what they may do (`abilities`). */
export function meApi(client: ApiClient) {
  return {
    /** The signed-in person and what they may do (rejects with code 4010 without a session). */
    get: () => client.get<Me>('/me'),
  };
}
