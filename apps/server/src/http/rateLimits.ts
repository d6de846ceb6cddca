import rateLimit, {
  type FastifyRateLimitStore,
  type FastifyRateLimitStoreCtor,
  type RateLimitOptions,
} from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest, RouteOptions } from 'fastify';
import { Redis } from 'ioredis';
import type { AppContext } from '../context.ts';
import { AppError } from './errors.ts';

/** Minimal logger shape (pino's). */
interface Log {
  warn(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
}

/** One count of a fixed window: requests in it so far (this one included) and milliseconds left. */
export interface WindowCount {
  current: number;
  ttl: number;
}

/** Counts in one key, atomically: the window starts at the first request and lasts `ARGV[1]` ms. */
const HIT_SCRIPT = `
local current = redis.call('INCR', KEYS[1])
if current == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return {current, ttl}
`;

/** After a Redis timeout, this instance counts alone this long before asking Redis again. */
const REDIS_RETRY_MS = 5_000;
/** At most one "Redis unreachable" warning per this interval. */
const WARN_EVERY_MS = 60_000;
/** Keys the local count keeps before it drops expired ones (and, if still over, the oldest). */
const LOCAL_MAX_KEYS = 50_000;

/**
 * Fixed-window counters for rate limits. With Redis (REDIS_URL) every instance shares one count;
 * without it, or while Redis fails or answers slower than `timeoutMs`, this instance counts alone in
 * memory: a Redis outage makes the limits per instance for a while, it never holds a request up or
 * fails it. Redis is used again as soon as it answers.
 */
export class RateCounter {
  readonly #redis: Redis | null;
  readonly #prefix: string;
  readonly #log: Log;
  readonly #local = new Map<string, { current: number; resetAt: number }>();
  #skipRedisUntil = 0;
  #lastWarning = Number.NEGATIVE_INFINITY;
  #alone = false;

  constructor(options: { redisUrl?: string | undefined; timeoutMs: number; prefix: string; log: Log }) {
    this.#prefix = options.prefix;
    this.#log = options.log;
    this.#redis = options.redisUrl
      ? new Redis(options.redisUrl, {
          // Never queue or retry a count: a count that cannot be made now is made locally.
          enableOfflineQueue: false,
          maxRetriesPerRequest: 0,
          commandTimeout: options.timeoutMs,
          connectTimeout: Math.max(1000, options.timeoutMs * 4),
          retryStrategy: (times: number) => Math.min(times * 200, 2000),
        })
      : null;
    // Without a listener ioredis prints every failed reconnection to stderr.
    this.#redis?.on('error', (error: Error) => this.#failed(error));
  }

  /**
   * Waits until the Redis connection is ready, fails, or `withinMs` passes, so that counts are shared
   * from the first request when Redis is there; never rejects, and does not wait without Redis.
   */
  async connected(withinMs: number): Promise<void> {
    const redis = this.#redis;
    if (!redis || redis.status === 'ready') return;
    await new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        redis.off('ready', done);
        redis.off('error', done);
        resolve();
      };
      const timer = setTimeout(done, withinMs);
      redis.once('ready', done);
      redis.once('error', done);
    });
  }

  /** Whether the counts are shared through Redis right now (false: this instance counts alone). */
  get shared(): boolean {
    return this.#redis !== null && !this.#alone;
  }

  /** Counts one request under `key` in a window of `windowMs`. Never rejects. */
  async hit(key: string, windowMs: number): Promise<WindowCount> {
    const redis = this.#redis;
    if (redis && redis.status !== 'ready') {
      this.#failed(new Error(`the Redis connection is ${redis.status}`));
    } else if (redis && Date.now() >= this.#skipRedisUntil) {
      try {
        const [current, ttl] = (await redis.eval(HIT_SCRIPT, 1, this.#prefix + key, windowMs)) as [
          number,
          number,
        ];
        if (this.#alone) {
          this.#alone = false;
          this.#log.info({}, 'rate limits: Redis answers again; counts are shared by every instance');
        }
        return { current, ttl };
      } catch (error) {
        // A command that timed out: Redis is up but stuck; do not make the next requests wait too.
        if (error instanceof Error && /timed? ?out/i.test(error.message)) {
          this.#skipRedisUntil = Date.now() + REDIS_RETRY_MS;
        }
        this.#failed(error);
      }
    }
    return this.#hitLocally(key, windowMs);
  }

  #failed(error: unknown): void {
    this.#alone = true;
    const now = Date.now();
    if (now - this.#lastWarning < WARN_EVERY_MS) return;
    this.#lastWarning = now;
    this.#log.warn(
      { err: error instanceof Error ? error.message : String(error) },
      'rate limits: Redis is unreachable or slow; this instance counts alone until it answers',
    );
  }

  #hitLocally(key: string, windowMs: number): WindowCount {
    const now = Date.now();
    let entry = this.#local.get(key);
    if (!entry || entry.resetAt <= now) {
      if (!entry && this.#local.size >= LOCAL_MAX_KEYS) this.#sweep(now);
      entry = { current: 0, resetAt: now + windowMs };
      this.#local.set(key, entry);
    }
    entry.current += 1;
    return { current: entry.current, ttl: entry.resetAt - now };
  }

  #sweep(now: number): void {
    for (const [key, entry] of this.#local) if (entry.resetAt <= now) this.#local.delete(key);
    // Still full (a flood of distinct keys): drop the oldest windows.
    for (const key of this.#local.keys()) {
      if (this.#local.size < LOCAL_MAX_KEYS) break;
      this.#local.delete(key);
    }
  }

  /** Closes the Redis connection at once (a stuck Redis would never answer QUIT). */
  close(): void {
    this.#redis?.disconnect();
  }
}

/**
 * A limit of @fastify/rate-limit with the name of its count: limits with one name share a count (all
 * write routes share `writes`); without one, each route counts alone. (Not the plugin's `groupId`,
 * which it also appends to the key.)
 */
export interface NamedLimit extends RateLimitOptions {
  countName?: string;
}

/** A store of @fastify/rate-limit over one RateCounter, counting under each limit's `countName`. */
function storeOf(counter: RateCounter): FastifyRateLimitStoreCtor {
  return class CounterStore implements FastifyRateLimitStore {
    readonly #name: string;

    constructor(options: NamedLimit = {}) {
      this.#name = options.countName ?? 'default';
    }

    incr(
      key: string,
      callback: (error: Error | null, result?: WindowCount) => void,
      timeWindow: number,
    ): void {
      counter.hit(`${this.#name}:${key}`, timeWindow).then(
        (result) => callback(null, result),
        (error: Error) => callback(error),
      );
    }

    child(routeOptions: RouteOptions & NamedLimit & { routeInfo?: Partial<RouteOptions> }) {
      const route = routeOptions.routeInfo;
      return new CounterStore({ countName: routeOptions.countName ?? `${route?.method} ${route?.url}` });
    }
  };
}

/** The 429's message: when to try again, in seconds. */
function tooMany(_request: FastifyRequest, context: { ttl: number }): AppError {
  const seconds = Math.max(1, Math.ceil(context.ttl / 1000));
  return new AppError(
    'rateLimited',
    `Too many requests: try again in ${seconds} second${seconds === 1 ? '' : 's'} (see Retry-After).`,
  );
}

/**
 * Registers @fastify/rate-limit once for the whole API (call before the routes), with one Redis
 * connection when REDIS_URL is set, closed with the app. Nothing is limited unless a route asks:
 * `config: { rateLimit: ... }`, or `limitWrites` for a resource's writes.
 */
export async function registerRateLimits(api: FastifyInstance, ctx: AppContext): Promise<void> {
  const counter = new RateCounter({
    redisUrl: ctx.config.redisUrl,
    timeoutMs: ctx.config.rateLimits.redisTimeoutMs,
    prefix: 'btalk-rl:',
    log: api.log,
  });
  api.addHook('onClose', async () => counter.close());
  // Start-up waits a moment for Redis, never for long: a Redis outage must not stop the server.
  await counter.connected(1000);
  await api.register(rateLimit, {
    global: false,
    store: storeOf(counter),
    errorResponseBuilder: tooMany,
  });
}

/** Per client address (TRUST_PROXY decides who the client is), for routes used before sign-in. */
export function perAddress(max: number, countName?: string): NamedLimit {
  return { max, timeWindow: '1 minute', ...(countName ? { countName } : {}) };
}

/** The person `authenticate` found; the address where it did not run. */
function personKey(request: FastifyRequest): string {
  return request.user ? `person:${request.user.id}` : `address:${request.ip}`;
}

/**
 * Per signed-in person, counted after `authenticate` (an onRequest hook) and before validation, so
 * refused bodies count too. All limits with one `countName` share a count.
 */
export function perPerson(max: number, countName: string): NamedLimit {
  return { max, timeWindow: '1 minute', countName, hook: 'preValidation', keyGenerator: personKey };
}

/**
 * Per person when the request carries a valid access token, else per address: for routes that also
 * work before sign-in (page views).
 */
export function perPersonOrAddress(ctx: AppContext, max: number, countName: string): NamedLimit {
  return {
    max,
    timeWindow: '1 minute',
    countName,
    keyGenerator: async (request) => {
      const match = /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '');
      if (match?.[1]) {
        const claims = await ctx.tokens.verify(match[1]).catch(() => null);
        if (claims) return `person:${claims.sub}`;
      }
      return `address:${request.ip}`;
    },
  };
}

const WRITE_METHODS = new Set(['POST', 'PATCH', 'PUT', 'DELETE']);

/**
 * Limits every write route (POST, PATCH, PUT, DELETE) registered after this call in `app` with
 * `options`, e.g. `limitWrites(app, perPerson(max, 'writes'))` at the top of a resource's routes.
 */
export function limitWrites(app: FastifyInstance, options: NamedLimit): void {
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (!methods.some((m) => WRITE_METHODS.has(m)) || route.config?.rateLimit !== undefined) return;
    if (typeof app.rateLimit !== 'function') {
      throw new Error(`${route.url}: call registerRateLimits (http/rateLimits.ts) before the routes`);
    }
    const limiter = app.rateLimit(options);
    const existing = route.preValidation;
    route.preValidation = [...(Array.isArray(existing) ? existing : existing ? [existing] : []), limiter];
  });
}
