import type { RefreshRequest, RefreshResponse } from '@btalk/contracts';
import { ErrorCode, EVENT_SEQ_HEADER } from '@btalk/contracts/constants';
import type { SessionStore } from '../stores/session.ts';
import { HttpError, NetworkError } from './errors.ts';

/** Request timeout of every product API call (SPEC.md section 9). */
export const API_TIMEOUT_MS = 120_000;

const REFRESH_PATH = '/auth/refresh';

/** Query parameters of a request. */
export type Params = Record<string, string | number | boolean | undefined>;

/** An HTTP method, as the generic `request` takes it. */
export type Method =
  | 'get'
  | 'post'
  | 'put'
  | 'patch'
  | 'delete'
  | 'GET'
  | 'POST'
  | 'PUT'
  | 'PATCH'
  | 'DELETE';

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
 * rejects with the whole failed envelope, an `HttpError`, or a `NetworkError` (no answer at all).
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
  /**
   * The event log's position the server's stream had reached when it answered the request whose
   * data this is (`EVENT_SEQ_HEADER`): the data reflects at least every event up to it. Undefined
   * for data this client did not receive as an answer's (or a server that did not say).
   */
  answerSeq(data: unknown): number | undefined;
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

/** One request as the client sends it. */
interface RequestConfig {
  method: Method;
  path: string;
  params?: Params;
  /** Sent as JSON. */
  body?: unknown;
  /** Sent as multipart instead of `body`: the browser writes the boundary into the content type. */
  form?: FormData;
  /** The answer is a file: read it as a Blob rather than as JSON. */
  blob?: boolean;
}

/** `{base}/{path}` with the query (undefined values left out), as the product's paths are written. */
function urlOf(base: string, path: string, params: Params | undefined): string {
  let url = `${base.replace(/\/+$/, '')}/${path.replace(/^\/+/, '')}`;
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(params ?? {})) {
    if (value !== undefined && value !== null) query.append(key, String(value));
  }
  const search = query.toString();
  if (search) url += `${url.includes('?') ? '&' : '?'}${search}`;
  return url;
}

/** A text answer as data: its JSON when it is JSON, else the text itself ('' when empty). */
function parseText(text: string): unknown {
  if (!text) return text;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** Creates the product API client. */
export function createApiClient(options: ApiClientOptions): ApiClient {
  const { session, navigation } = options;

  // Concurrent 401s in this tab wait for one refresh instead of each spending the refresh token.
  let refreshing: Promise<boolean> | null = null;
  // The stream's position behind each answer's data (objects only: a primitive has no identity).
  const answerSeqs = new WeakMap<object, number>();

  async function refreshSession(failedToken: string | null): Promise<boolean> {
    // Another tab may have refreshed while this one waited for the lock: its tokens are in storage.
    session.reload();
    const current = await session.accessToken();
    if (current && current !== failedToken) return true;
    const refreshToken = await session.refreshToken();
    if (!refreshToken) return false;
    try {
      const body: RefreshRequest = { refreshToken, redirectUri: options.redirectUri };
      const data = await send<RefreshResponse>({ method: 'post', path: REFRESH_PATH, body }, true);
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

  /**
   * One exchange with the server: the status and the answer's body (a Blob for files, else parsed
   * JSON or text). No answer at all, or none within the timeout, rejects with a `NetworkError`.
   */
  async function exchange(
    config: RequestConfig,
    token: string | null,
  ): Promise<{ status: number; body: unknown; seq: number | undefined }> {
    const headers: Record<string, string> = { 'x-api-key': options.apiKey };
    const json = config.body === undefined || config.body === null ? undefined : JSON.stringify(config.body);
    if (json !== undefined) headers['Content-Type'] = 'application/json';
    if (token) headers.Authorization = `Bearer ${token}`;
    // The timeout covers the whole answer, its body included: a download that stalls is no answer either.
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, API_TIMEOUT_MS);
    try {
      const request = new Request(urlOf(options.apiBase, config.path, config.params), {
        // Upper case: fetch sends 'patch' as it is written, and servers answer it 400 or 405.
        method: config.method.toUpperCase(),
        headers,
        body: config.form ?? json,
        signal: controller.signal,
      });
      const response = await fetch(request);
      const answer = config.blob && response.ok ? await response.blob() : parseText(await response.text());
      const seq = Number.parseInt(response.headers.get(EVENT_SEQ_HEADER) ?? '', 10);
      return { status: response.status, body: answer, seq: Number.isSafeInteger(seq) ? seq : undefined };
    } catch (error) {
      if (timedOut) {
        throw new NetworkError(`timeout of ${API_TIMEOUT_MS}ms exceeded`, { timedOut: true, cause: error });
      }
      throw new NetworkError('Network Error', { cause: error });
    } finally {
      clearTimeout(timer);
    }
  }

  async function send<T>(config: RequestConfig, retried = false): Promise<T> {
    const token = await session.accessToken();
    const { status, body, seq } = await exchange(config, token);

    if (status === 401 && config.path !== REFRESH_PATH && !retried) {
      // Another request may have refreshed while this one was in flight: then just repeat it.
      const current = await session.accessToken();
      if ((current && current !== token) || (await refreshOnce(token))) return send<T>(config, true);
      navigation.toLogin();
      throw isEnvelope(body) ? body : new HttpError(status, body);
    }

    // A failed file download still answers an envelope (read above as JSON, not as a Blob).
    if (isEnvelope(body)) {
      if (body.code === ErrorCode.ok) {
        if (seq !== undefined && typeof body.data === 'object' && body.data !== null)
          answerSeqs.set(body.data, seq);
        return body.data as T;
      }
      if (body.code === ErrorCode.termsNotAccepted) navigation.toTerms();
      throw body;
    }
    if (status >= 400) throw new HttpError(status, body);
    return body as T;
  }

  return {
    get: (path, params) => send({ method: 'get', path, params }),
    post: (path, body) => send({ method: 'post', path, body }),
    postForm: (path, form) => send({ method: 'post', path, form }),
    patch: (path, body) => send({ method: 'patch', path, body }),
    delete: (path, params, body) => send({ method: 'delete', path, params, body }),
    request: (method, path, opts = {}) => send({ method, path, params: opts.params, body: opts.body }),
    blob: (path) => send<Blob>({ method: 'get', path, blob: true }),
    refresh: (failedToken) => refreshOnce(failedToken),
    answerSeq: (data) => (typeof data === 'object' && data !== null ? answerSeqs.get(data) : undefined),
  };
}
