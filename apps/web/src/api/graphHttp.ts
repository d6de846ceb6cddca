import axios from 'axios';
import { type AxiosCacheInstance, setupCache } from 'axios-cache-interceptor';
import type { SessionStore } from '../stores/session.ts';
import { GRAPH_CACHE_TTL_MS } from './graph.ts';

/**
 * The axios instance behind `axiosCache` (api/graph.ts), in a module of its own so that axios and
 * axios-cache-interceptor load with the first Graph request rather than with the first screen: base
 * URL from the start-up configuration, answers cached for an hour, the directory token as bearer.
 */
export function createGraphHttp(graphBase: string, session: SessionStore): AxiosCacheInstance {
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
