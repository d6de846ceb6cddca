import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll } from 'vitest';
import { buildApp } from '../app.ts';
import { type Config, loadConfig } from '../config/index.ts';
import { type AppContext, createContext } from '../context.ts';
import type { DatabaseKind } from '../db/index.ts';
import { serverVersion } from '../version.ts';
import { openTestDatabase } from './db.ts';

/**
 * Per-person limits for tests: a test makes one person write faster than anyone types. Tests of the
 * limits themselves pass lower ones (http/rateLimits.test.ts).
 */
const TEST_RATE_LIMITS = {
  WRITE_RATE_LIMIT_PER_MINUTE: '10000',
  UPLOAD_RATE_LIMIT_PER_MINUTE: '10000',
  PAGE_VIEW_RATE_LIMIT_PER_MINUTE: '10000',
};

/** Configuration for in-process tests: test mode, no web build, quiet, generous per-person limits. */
export function testConfig(env: Record<string, string> = {}): Config {
  return loadConfig({
    BTALK_ENV: 'test',
    DATA_DIR: ':memory:',
    LOG_LEVEL: 'silent',
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
}

/**
 * Builds the app on a fresh database of the given kind before the file's tests and closes it after.
 * Use at the top of a `describe`: `const server = useTestServer(kind)`.
 */
export function useTestServer(kind: DatabaseKind, env: Record<string, string> = {}): TestServer {
  const server = {} as TestServer;
  let cleanup: () => Promise<void> = async () => {};
  beforeAll(async () => {
    const testDb = await openTestDatabase(kind);
    const config = testConfig(env);
    const ctx = createContext(config, testDb.db, serverVersion);
    const app = await buildApp(ctx, { logger: false });
    await app.ready();
    server.app = app;
    server.ctx = ctx;
    server.request = (options) =>
      app.inject({ ...options, headers: { 'x-api-key': config.apiKey, ...options.headers } });
    // app.close() closes the database (onClose hook); then drop the schema.
    cleanup = async () => {
      await app.close();
      await testDb.cleanup().catch(() => {});
    };
  });
  afterAll(() => cleanup());
  return server;
}
