import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll } from 'vitest';
import { buildApp } from '../app.ts';
import { type Config, loadConfig } from '../config/index.ts';
import { type AppContext, createContext } from '../context.ts';
import type { DatabaseKind } from '../db/index.ts';
import { serverVersion } from '../version.ts';
import { openTestDatabase } from './db.ts';
import { type LocalS3, startLocalS3 } from './s3.ts';

/**
 * Per-person limits for tests: a test makes one person write faster than anyone types. Tests of the
 * limits themselves pass lower ones (http/rateLimits.test.ts).
 */
const TEST_RATE_LIMITS = {
  WRITE_RATE_LIMIT_PER_MINUTE: '10000',
  UPLOAD_RATE_LIMIT_PER_MINUTE: '10000',
  PAGE_VIEW_RATE_LIMIT_PER_MINUTE: '10000',
};

/**
 * Configuration for in-process tests: test mode, no web build, quiet, generous per-person limits.
 * `app.inject` sends `Host: localhost:80`, not PUBLIC_URL's host, so page requests are not
 * redirected to PUBLIC_URL (http/publicHost.test.ts turns it on; real servers keep it on).
 */
export function testConfig(env: Record<string, string> = {}): Config {
  return loadConfig({
    BTALK_ENV: 'test',
    DATA_DIR: ':memory:',
    LOG_LEVEL: 'silent',
    REDIRECT_TO_PUBLIC_URL: 'false',
    ...TEST_RATE_LIMITS,
    ...env,
  });
}

/** A running in-process server and helpers to call it. */
export interface TestServer {
  app: FastifyInstance;
  ctx: AppContext;
  /** Sends a request with the web client's x-api-key (override `headers` to test without it). */
  request(options: InjectOptions): Promise<LightMyRequestResponse>;
  /** The local S3 that holds the attachments, with the `s3` option. */
  s3?: LocalS3;
}

/** How the test server is set up beyond its environment variables. */
export interface TestServerOptions {
  /**
   * Keep attachments in a local S3 (s3rver, test/s3.ts) started for the server, instead of a
   * throw-away folder; `env` may add or override S3_* variables (S3_SIGNED_DOWNLOADS, S3_PREFIX).
   */
  s3?: boolean;
}

/**
 * Builds the app on a fresh database of the given kind before the file's tests and closes it after.
 * Use at the top of a `describe`: `const server = useTestServer(kind)`.
 */
export function useTestServer(
  kind: DatabaseKind,
  env: Record<string, string> = {},
  setup: TestServerOptions = {},
): TestServer {
  const server = {} as TestServer;
  let cleanup: () => Promise<void> = async () => {};
  beforeAll(async () => {
    const s3 = setup.s3 ? await startLocalS3() : undefined;
    // Stopped even when what follows fails.
    cleanup = async () => {
      await s3?.stop();
    };
    const testDb = await openTestDatabase(kind);
    const config = testConfig({ ...s3?.env, ...env });
    const ctx = createContext(config, testDb.db, serverVersion);
    const app = await buildApp(ctx, { logger: false });
    await app.ready();
    server.app = app;
    server.ctx = ctx;
    server.s3 = s3;
    server.request = (options) =>
      app.inject({ ...options, headers: { 'x-api-key': config.apiKey, ...options.headers } });
    // app.close() closes the database and the file storage (onClose hook); then drop the schema.
    cleanup = async () => {
      await app.close();
      await testDb.cleanup().catch(() => {});
      await s3?.stop();
    };
  });
  afterAll(() => cleanup());
  return server;
}
