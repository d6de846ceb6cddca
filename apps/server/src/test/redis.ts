import { Redis } from 'ioredis';

/** The Redis that tests share: the machine's own unless TEST_REDIS_URL says otherwise (keys are per run). */
export const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

async function canReachRedis(): Promise<string | null> {
  const redis = new Redis(TEST_REDIS_URL, {
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    connectTimeout: 2000,
    retryStrategy: () => null,
  });
  redis.on('error', () => {});
  try {
    await redis.connect();
    await redis.ping();
    return null;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  } finally {
    redis.disconnect();
  }
}

/**
 * Whether `what` (a test that needs Redis) can run: under CI=true an unreachable Redis fails the file,
 * elsewhere the test is skipped with a plain warning. Answers the reason Redis is unreachable, or null.
 */
export async function redisFor(what: string): Promise<string | null> {
  const unreachable = await canReachRedis();
  if (unreachable && process.env.CI === 'true') {
    throw new Error(
      `Redis at ${TEST_REDIS_URL} is not reachable (${unreachable}). Under CI=true ${what} is required: ` +
        'start redis-server or set TEST_REDIS_URL.',
    );
  }
  if (unreachable)
    console.warn(`SKIPPED ${what}: Redis at ${TEST_REDIS_URL} is not reachable (${unreachable}).`);
  return unreachable;
}
