import type { AxiosCacheInstance, CacheAxiosResponse, CacheRequestConfig } from 'axios-cache-interceptor';
import type { SessionStore } from '../stores/session.ts';

/** Cache lifetime of the Graph client (SPEC.md section 9). */
export const GRAPH_CACHE_TTL_MS = 60 * 60 * 1000;

/** The cached Graph client as the app uses it (`axiosCache`): axios-cache-interceptor's `get` and cache. */
export interface GraphClient {
  /** A GET through the cache (an hour), with the directory token as bearer. */
  get<T = unknown>(path: string, config?: CacheRequestConfig<T>): Promise<CacheAxiosResponse<T>>;
  storage: {
    /** Forgets every cached answer (at sign-in and sign-out: the cache is keyed by address, not by person). */
    clear(): Promise<void>;
  };
}

/**
 * The cached HTTP client of the directory's Graph API, known to the app as `axiosCache` (SPEC.md
 * section 1). axios and axios-cache-interceptor (about 22 KB as sent) are imported on the first
 * request, not with the first screen (issue 14); a failed import is tried again on the next request.
 */
export function createGraphClient(graphBase: string, session: SessionStore): GraphClient {
  let loading: Promise<AxiosCacheInstance> | null = null;
  const http = () => {
    loading ??= import('./graphHttp.ts').then(
      (module) => module.createGraphHttp(graphBase, session),
      (error: unknown) => {
        loading = null;
        throw error;
      },
    );
    return loading;
  };
  return {
    get: async <T>(path: string, config?: CacheRequestConfig<T>) => (await http()).get<T>(path, config),
    storage: {
      async clear() {
        // Nothing can be cached before the first request: clearing then loads nothing.
        const loaded = await loading?.catch(() => null);
        await loaded?.storage.clear?.();
      },
    },
  };
}
