import type { IMessageActivity } from '@microsoft/teams.api';
import type { Config } from '../config/index.ts';

/** What the connector needs of the bot's configuration. */
export type BotCredentials = Pick<NonNullable<Config['teamsBot']>, 'appId' | 'appPassword' | 'tokenUrl'>;

/** Where a conversation lives: what an install activity told (`teams_conversations`). */
export interface ConversationRef {
  serviceUrl: string;
  conversationId: string;
}

/** A message the bot sends (the Teams SDK's message activity: only what an outgoing one carries). */
export type OutgoingActivity = Partial<
  Pick<IMessageActivity, 'text' | 'summary' | 'importance' | 'attachments' | 'channelData'>
> & { type: 'message' };

/** The Bot Connector (or its token endpoint) refused or could not be reached. */
export class ConnectorError extends Error {
  override name = 'ConnectorError';
  /** The HTTP status (0: no answer). */
  readonly status: number;
  /** The connector's Retry-After, in milliseconds, when it said (429, 503). */
  readonly retryAfterMs: number | undefined;

  constructor(message: string, status: number, retryAfterMs?: number) {
    super(message);
    this.status = status;
    this.retryAfterMs = retryAfterMs;
  }
}

/** The scope of a token for the Bot Connector service. */
export const BOT_CONNECTOR_SCOPE = 'https://api.botframework.com/.default';
/** A token is renewed this long before it expires, so that none expires in flight. */
const RENEW_BEFORE_MS = 5 * 60_000;
const DEFAULT_TIMEOUT_MS = 10_000;

/** Milliseconds to wait from a Retry-After header (seconds or an HTTP date), if it says. */
export function parseRetryAfter(header: string | null, at = Date.now()): number | undefined {
  if (!header) return undefined;
  const text = header.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : Math.max(0, date - at);
}

/** The host of a URL, for error texts (never a path or a secret). */
function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return 'an invalid address';
  }
}

/**
 * The Bot Connector REST client: sends activities into conversations
 * (`POST {serviceUrl}/v3/conversations/{id}/activities`) with the bot's token, obtained with client
 * credentials from `tokenUrl` and kept until shortly before it expires (one request at a time renews
 * it). Failures throw `ConnectorError` with the status and Retry-After.
 */
export class BotConnector {
  readonly #credentials: BotCredentials;
  readonly #timeoutMs: number;
  #token: { value: string; renewAt: number } | null = null;
  #pending: Promise<string> | null = null;

  constructor(credentials: BotCredentials, options: { timeoutMs?: number } = {}) {
    this.#credentials = credentials;
    this.#timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  }

  /** Sends an activity into a conversation; answers the id the connector gave it. */
  async send(ref: ConversationRef, activity: object): Promise<{ id: string }> {
    const url = `${ref.serviceUrl.replace(/\/+$/, '')}/v3/conversations/${encodeURIComponent(ref.conversationId)}/activities`;
    let response = await this.#post(url, activity, await this.#bearer());
    if (response.status === 401) {
      // The connector no longer takes the kept token (revoked, clock skew): one try with a new one.
      this.#token = null;
      response = await this.#post(url, activity, await this.#bearer());
    }
    if (!response.ok) {
      await response.body?.cancel();
      throw new ConnectorError(
        `Bot Connector (${hostOf(url)}) answered ${response.status}`,
        response.status,
        parseRetryAfter(response.headers.get('retry-after')),
      );
    }
    const body = (await response.json().catch(() => ({}))) as { id?: unknown };
    return { id: typeof body.id === 'string' ? body.id : '' };
  }

  async #post(url: string, activity: object, token: string): Promise<Response> {
    try {
      return await fetch(url, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify(activity),
        redirect: 'error',
        signal: AbortSignal.timeout(this.#timeoutMs),
      });
    } catch (error) {
      throw new ConnectorError(
        `Bot Connector (${hostOf(url)}) unreachable: ${error instanceof Error ? error.message : String(error)}`,
        0,
      );
    }
  }

  /** The bot's token, from the cache or the token endpoint (concurrent sends share one request). */
  async #bearer(): Promise<string> {
    if (this.#token && this.#token.renewAt > Date.now()) return this.#token.value;
    this.#pending ??= this.#fetchToken().finally(() => {
      this.#pending = null;
    });
    return this.#pending;
  }

  async #fetchToken(): Promise<string> {
    const { appId, appPassword, tokenUrl } = this.#credentials;
    let response: Response;
    try {
      response = await fetch(tokenUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'client_credentials',
          client_id: appId,
          client_secret: appPassword,
          scope: BOT_CONNECTOR_SCOPE,
        }).toString(),
        signal: AbortSignal.timeout(this.#timeoutMs),
      });
    } catch (error) {
      throw new ConnectorError(
        `bot token endpoint (${hostOf(tokenUrl)}) unreachable: ${error instanceof Error ? error.message : String(error)}`,
        0,
      );
    }
    const body = (await response.json().catch(() => ({}))) as {
      access_token?: unknown;
      expires_in?: unknown;
    };
    if (!response.ok || typeof body.access_token !== 'string') {
      // The token endpoint's own status is not the conversation's: a refused secret is a 5xx-like
      // failure to retry later (never a 403 that would disconnect the person).
      throw new ConnectorError(
        `bot token endpoint (${hostOf(tokenUrl)}) answered ${response.status} without a token`,
        response.status === 429 ? 429 : 502,
        parseRetryAfter(response.headers.get('retry-after')),
      );
    }
    const lifetimeMs = (Number(body.expires_in) || 3600) * 1000;
    this.#token = {
      value: body.access_token,
      renewAt: Date.now() + Math.max(lifetimeMs - RENEW_BEFORE_MS, lifetimeMs / 2),
    };
    return body.access_token;
  }
}
