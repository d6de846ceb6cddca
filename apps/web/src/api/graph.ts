import axios from 'axios';
import { type AxiosCacheInstance, setupCache } from 'axios-cache-interceptor';
import type { SessionStore } from '../stores/session.ts';

/** Cache lifetime of the Graph client (SPEC.md section 9). */
export const GRAPH_CACHE_TTL_MS = 60 * 60 * 1000;

/**
 * The cached HTTP client of the directory's Graph API, known to the app as `axiosCache`: base URL
 * from the start-up configuration, answers cached for an hour, the directory token as bearer.
 */
export function createGraphClient(graphBase: string, session: SessionStore): AxiosCacheInstance {
  const instance = setupCache(axios.create({ baseURL: graphBase, timeout: 30_000 }), {
    ttl: GRAPH_CACHE_TTL_MS,
    // Graph's own cache headers would shorten the hour the product asks for.
    interpretHeader: false,
  });
  instance.interceptors.request.use((config) => {
    const token = session.getState().aad_token;
    if (token) config.headers.set('Authorization', `Bearer ${token}`);
    return config;
  });
  return instance;
}
