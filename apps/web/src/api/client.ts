import type { RefreshRequest, RefreshResponse } from '@btalk/contracts';
import { ErrorCode } from '@btalk/contracts/constants';
import axios, { type AxiosRequestConfig, type AxiosResponse, type Method } from 'axios';
import type { SessionStore } from '../stores/session.ts';
import { HttpError } from './errors.ts';

/** Request timeout of every product API call (SPEC.md section 9). */
export const API_TIMEOUT_MS = 120_000;

const REFRESH_PATH = '/auth/refresh';

/** Query parameters of a request. */
export type Params = Record<string, string | number | boolean | undefined>;

/** Where the client sends people when the session or the terms need them (SPEC.md section 2). */
export interface ApiNavigation {
  /** Envelope code 4404: replace the current location with /terms. */
  toTerms(): void;
  /** The session could not be refreshed: go to /login. */
  toLogin(): void;
}

/** Options of the product API client. */
export interface ApiClientOptions {
  /** `{host}/api`, from the start-up configuration. */
  apiBase: string;
  /** The web client's key, sent as `x-api-key` on every request. */
  apiKey: string;
  session: SessionStore;
  navigation: ApiNavigation;
  /** The `/aad/callback` address sent as the refresh's redirectUri. */
  redirectUri: string;
}

/**
 * The product API client (SPEC.md sections 7 and 8). Every call resolves to the envelope's data or
 * rejects with the whole failed envelope, an `HttpError`, or axios's network error.
 */
export interface ApiClient {
  get<T>(path: string, params?: Params): Promise<T>;
  post<T>(path: string, body?: unknown): Promise<T>;
  /** A multipart form post (files). */
  postForm<T>(path: string, form: FormData): Promise<T>;
  patch<T>(path: string, body?: unknown): Promise<T>;
  delete<T>(path: string, params?: Params, body?: unknown): Promise<T>;
  request<T>(method: Method, path: string, options?: { params?: Params; body?: unknown }): Promise<T>;
  /** A GET whose answer is a file (an attachment), with the same headers, refresh and errors. */
  blob(path: string): Promise<Blob>;
  /**
   * Refreshes the session (one shared refresh per tab, Web Lock across tabs) after `failedToken` was
   * refused elsewhere, e.g. by the realtime stream; true when a newer access token is stored.
   */
  refresh(failedToken: string | null): Promise<boolean>;
}

/** Name of the Web Lock that serialises refreshes across this origin's tabs. */
export const REFRESH_LOCK = 'btalk-refresh';

/**
 * Runs `refresh` holding the cross-tab refresh lock (Web Locks), so that two tabs never spend the
 * same refresh token: the second one waits, then finds the first one's new tokens in storage.
 * Browsers without Web Locks (and jsdom) run it directly; the server's grace window covers them.
 */
async function withRefreshLock(refresh: () => Promise<boolean>): Promise<boolean> {
  const locks = typeof navigator === 'undefined' ? undefined : navigator.locks;
  return locks ? locks.request(REFRESH_LOCK, refresh) : refresh();
}

function isEnvelope(body: unknown): body is { code: number; data?: unknown } {
  return typeof body === 'object' && body !== null && typeof (body as { code?: unknown }).code === 'number';
}

/** Creates the product API client. */
export function createApiClient(options: ApiClientOptions): ApiClient {
  const { session, navigation } = options;
  const http = axios.create({
    baseURL: options.apiBase,
    timeout: API_TIMEOUT_MS,
    headers: { 'Content-Type': 'application/json', 'x-api-key': options.apiKey },
    // Statuses are judged below, together with the envelope, rather than thrown by axios.
    validateStatus: () => true,
  });

  // Concurrent 401s in this tab wait for one refresh instead of each spending the refresh token.
  let refreshing: Promise<boolean> | null = null;

  async function refreshSession(failedToken: string | null): Promise<boolean> {
    // Another tab may have refreshed while this one waited for the lock: its tokens are in storage.
    session.reload();
    const current = await session.accessToken();
    if (current && current !== failedToken) return true;
    const refreshToken = await session.refreshToken();
    if (!refreshToken) return false;
    try {
      const body: RefreshRequest = { refreshToken, redirectUri: options.redirectUri };
      const data = await send<RefreshResponse>({ method: 'post', url: REFRESH_PATH, data: body }, true);
      await session.setTokens({
        accessToken: data.accessToken,
        aadToken: data.aadAccessToken,
        ...(data.refreshToken ? { refreshToken: data.refreshToken } : {}),
      });
      return true;
    } catch {
      return false;
    }
  }

  function refreshOnce(failedToken: string | null): Promise<boolean> {
    refreshing ??= withRefreshLock(() => refreshSession(failedToken)).finally(() => {
      refreshing = null;
    });
    return refreshing;
  }

  async function send<T>(config: AxiosRequestConfig, retried = false): Promise<T> {
    const token = await session.accessToken();
    const headers = { ...(config.headers as Record<string, string> | undefined) };
    if (token) headers.Authorization = `Bearer ${token}`;
    const response: AxiosResponse<unknown> = await http.request({ ...config, headers });

    if (response.status === 401 && config.url !== REFRESH_PATH && !retried) {
      // Another request may have refreshed while this one was in flight: then just repeat it.
      const current = await session.accessToken();
      if ((current && current !== token) || (await refreshOnce(token))) return send<T>(config, true);
      navigation.toLogin();
      throw isEnvelope(response.data) ? response.data : new HttpError(response.status, response.data);
    }

    let body = response.data;
    // A failed file download still answers an envelope, as JSON inside the blob.
    if (body instanceof Blob && response.status >= 400 && body.type.includes('json')) {
      body = JSON.parse(await body.text()) as unknown;
    }
    if (isEnvelope(body)) {
      if (body.code === ErrorCode.ok) return body.data as T;
      if (body.code === ErrorCode.termsNotAccepted) navigation.toTerms();
      throw body;
    }
    if (response.status >= 400) throw new HttpError(response.status, body);
    return body as T;
  }

  return {
    get: (path, params) => send({ method: 'get', url: path, params }),
    post: (path, body) => send({ method: 'post', url: path, data: body }),
    postForm: (path, form) =>
      send({ method: 'post', url: path, data: form, headers: { 'Content-Type': 'multipart/form-data' } }),
    patch: (path, body) => send({ method: 'patch', url: path, data: body }),
    delete: (path, params, body) => send({ method: 'delete', url: path, params, data: body }),
    request: (method, path, opts = {}) => send({ method, url: path, params: opts.params, data: opts.body }),
    blob: (path) => send<Blob>({ method: 'get', url: path, responseType: 'blob' }),
    refresh: (failedToken) => refreshOnce(failedToken),
  };
}
