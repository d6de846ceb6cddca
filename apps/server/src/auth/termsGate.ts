import type { FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../db/index.ts';
import type { UserRow } from '../db/schema.ts';
import { AppError } from '../http/errors.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The route answers people who have not accepted the current terms of use (sign-in, session and
     * terms routes, and a call-tree event's pending list and one's own answer: an emergency reaches
     * people before they accept). Every other route that authenticates answers them 4404.
     */
    termsExempt?: boolean;
  }
}

/** How long an instance trusts its cached current version before reading it again. */
export const TERMS_VERSION_TTL_MS = 5000;

/** The newest published terms version, 0 when none is published. */
export async function readCurrentTermsVersion(db: Kysely<Database>): Promise<number> {
  const row = await db
    .selectFrom('terms_versions')
    .select((eb) => eb.fn.max('version').as('version'))
    .executeTakeFirst();
  return Number(row?.version ?? 0);
}

/**
 * The current terms version, cached in the process so that the gate costs no query on most
 * requests. A publication on this instance updates it at once (`published`); other instances read
 * it again after `ttlMs`, so all of them converge within a few seconds.
 */
export class CurrentTermsVersion {
  readonly #db: Kysely<Database>;
  readonly #ttlMs: number;
  #version = 0;
  #readAt = Number.NEGATIVE_INFINITY;
  #reading: Promise<number> | null = null;

  constructor(db: Kysely<Database>, ttlMs = TERMS_VERSION_TTL_MS) {
    this.#db = db;
    this.#ttlMs = ttlMs;
  }

  /** The current version: cached, or read once for all callers waiting at the same time. */
  async get(): Promise<number> {
    if (Date.now() - this.#readAt < this.#ttlMs) return this.#version;
    this.#reading ??= readCurrentTermsVersion(this.#db)
      .then((version) => {
        this.#remember(version);
        return this.#version;
      })
      .finally(() => {
        this.#reading = null;
      });
    return this.#reading;
  }

  /** Tells the cache that `version` was published and committed on this instance. */
  published(version: number): void {
    this.#remember(version);
  }

  #remember(version: number): void {
    // Versions only grow: an older read finishing late never takes the cache back.
    this.#version = Math.max(this.#version, version);
    this.#readAt = Date.now();
  }
}

/** Whether a person has accepted the current terms version. */
export async function hasAcceptedCurrentTerms(current: CurrentTermsVersion, user: UserRow): Promise<boolean> {
  return (user.terms_accepted_version ?? 0) >= (await current.get());
}

/**
 * The terms gate, run by `authenticate` once the person is loaded: a person who has not accepted the
 * current terms gets 403 with envelope code 4404 (the client goes to /terms), unless the route is
 * marked `config: { termsExempt: true }`.
 */
export async function requireAcceptedTerms(
  current: CurrentTermsVersion,
  request: FastifyRequest,
  user: UserRow,
): Promise<void> {
  if (request.routeOptions.config?.termsExempt) return;
  await assertAcceptedTerms(current, user);
}

/**
 * Throws 403 with envelope code 4404 unless the person has accepted the current terms: for an exempt
 * route that lets such people do only part of what it does (their own call-tree answer, not one on
 * behalf of a report).
 */
export async function assertAcceptedTerms(current: CurrentTermsVersion, user: UserRow): Promise<void> {
  if (await hasAcceptedCurrentTerms(current, user)) return;
  throw new AppError(
    'termsNotAccepted',
    'Accept the current terms of use first: read GET /api/terms/current and accept its version with POST /api/terms/acceptances.',
  );
}
