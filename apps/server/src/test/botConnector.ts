import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** An activity the stand-in received. */
export interface ReceivedActivity {
  conversationId: string;
  /** The request's Authorization header. */
  authorization: string;
  activity: Record<string, unknown>;
  /** The id the stand-in answered with. */
  id: string;
}

/** A scripted answer to the next activity requests. */
export interface ScriptedAnswer {
  status: number;
  /** The Retry-After header to send (seconds or an HTTP date). */
  retryAfter?: string;
}

/**
 * A local Bot Connector speaking its REST protocol at the HTTP boundary, for tests and local
 * development: a token endpoint (`POST /token`, OAuth 2 client credentials with the bot's id and
 * secret and the Bot Framework scope) and `POST /v3/conversations/:id/activities`, which takes only
 * the tokens it issued and records what it got. Switches: `answerNext` scripts the next answers (429
 * with Retry-After, 500), `gone` makes a conversation answer 403 (the app removed or blocked).
 */
export class BotConnectorStandIn {
  readonly received: ReceivedActivity[] = [];
  /** The conversation of every activity request with an issued token, answered as it may (201, 429, 403). */
  readonly requests: string[] = [];
  /** Token requests, accepted or not. */
  tokenRequests = 0;
  readonly #server: http.Server;
  readonly #tokens = new Set<string>();
  readonly #script: ScriptedAnswer[] = [];
  readonly #gone = new Map<string, number>();
  readonly appId: string;
  readonly appPassword: string;

  constructor(credentials: { appId?: string; appPassword?: string } = {}) {
    this.appId = credentials.appId ?? 'bot-app-id';
    this.appPassword = credentials.appPassword ?? randomBytes(16).toString('hex');
    this.#server = http.createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (c: Buffer) => chunks.push(c));
      request.on('end', () => this.#answer(request, Buffer.concat(chunks).toString('utf8'), response));
    });
  }

  /** Listens on a free loopback port. */
  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.#server.listen(0, '127.0.0.1', resolve));
    return this;
  }

  async stop(): Promise<void> {
    this.#server.closeAllConnections();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }

  /** The service URL conversations carry (what Teams puts in `activity.serviceUrl`). */
  get serviceUrl(): string {
    return `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}/`;
  }

  /** The bot's token endpoint (TEAMS_BOT_TOKEN_URL). */
  get tokenUrl(): string {
    return `${this.serviceUrl}token`;
  }

  /** The bot credentials to configure (`config.teamsBot`'s part the connector uses). */
  get credentials(): { appId: string; appPassword: string; tokenUrl: string } {
    return { appId: this.appId, appPassword: this.appPassword, tokenUrl: this.tokenUrl };
  }

  /** The next activity requests get these answers, in order (then 201 again). */
  answerNext(...answers: ScriptedAnswer[]): void {
    this.#script.push(...answers);
  }

  /** From now on the conversation answers `status` (403: the person removed or blocked the app). */
  gone(conversationId: string, status = 403): void {
    this.#gone.set(conversationId, status);
  }

  /** What reached a conversation, in order. */
  activitiesOf(conversationId: string): Record<string, unknown>[] {
    return this.received.filter((r) => r.conversationId === conversationId).map((r) => r.activity);
  }

  #answer(request: http.IncomingMessage, body: string, response: http.ServerResponse): void {
    const json = (status: number, value: unknown, headers: Record<string, string> = {}) => {
      response.writeHead(status, { 'content-type': 'application/json', ...headers });
      response.end(JSON.stringify(value));
    };
    const url = new URL(request.url ?? '/', 'http://stand-in');
    if (request.method === 'POST' && url.pathname === '/token') {
      this.tokenRequests++;
      const form = new URLSearchParams(body);
      if (
        form.get('grant_type') !== 'client_credentials' ||
        form.get('client_id') !== this.appId ||
        form.get('client_secret') !== this.appPassword
      ) {
        json(401, { error: 'invalid_client' });
        return;
      }
      if (form.get('scope') !== 'https://api.botframework.com/.default') {
        json(400, { error: 'invalid_scope' });
        return;
      }
      const token = randomBytes(24).toString('base64url');
      this.#tokens.add(token);
      json(200, { token_type: 'Bearer', expires_in: 3599, ext_expires_in: 3599, access_token: token });
      return;
    }
    const match = /^\/v3\/conversations\/([^/]+)\/activities$/.exec(url.pathname);
    if (request.method !== 'POST' || !match) {
      json(404, { error: { code: 'NotFound', message: 'no such endpoint' } });
      return;
    }
    const authorization = request.headers.authorization ?? '';
    if (!authorization.startsWith('Bearer ') || !this.#tokens.has(authorization.slice(7))) {
      json(401, { error: { code: 'Unauthorized', message: 'token missing or not issued here' } });
      return;
    }
    const conversationId = decodeURIComponent(match[1]!);
    this.requests.push(conversationId);
    const gone = this.#gone.get(conversationId);
    if (gone) {
      json(gone, {
        error: { code: 'ConversationBlockedByUser', message: 'User blocked the conversation with the bot.' },
      });
      return;
    }
    const scripted = this.#script.shift();
    if (scripted) {
      json(
        scripted.status,
        { error: { code: 'Throttled', message: 'scripted' } },
        scripted.retryAfter ? { 'retry-after': scripted.retryAfter } : {},
      );
      return;
    }
    let activity: Record<string, unknown>;
    try {
      activity = JSON.parse(body) as Record<string, unknown>;
    } catch {
      json(400, { error: { code: 'BadArgument', message: 'not JSON' } });
      return;
    }
    if (activity.type !== 'message') {
      json(400, { error: { code: 'BadArgument', message: 'only message activities here' } });
      return;
    }
    const id = `1:${randomBytes(8).toString('hex')}`;
    this.received.push({ conversationId, authorization, activity, id });
    json(201, { id });
  }
}
