import { isIP } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEFAULT_REFUSED_EXTENSIONS, REFUSED_EXTENSION_PATTERN } from '@btalk/contracts';
import { z } from 'zod';
import { estimatedSecretBits, isLoopbackHost, MIN_SECRET_BITS, SECRET_VARIABLES } from './guards.ts';
import { S3_BUCKET_PATTERN, S3_PREFIX_PATTERN, type S3Config, s3Config, s3Problems } from './s3.ts';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'], { message: 'must be true or false' })
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

/** Whether `zone` is an IANA time zone this Node knows (`Asia/Bangkok`, `UTC`). */
function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

const url = (what: string) => z.string().url({ message: `must be a full URL (${what})` });

const seconds = (least: number, most: number) =>
  z.coerce
    .number({ message: 'must be a number of seconds' })
    .int({ message: 'must be a whole number of seconds' })
    .min(least, { message: `must be between ${least} and ${most} seconds` })
    .max(most, { message: `must be between ${least} and ${most} seconds` });

/** proxy-addr's names for address ranges, accepted in TRUST_PROXY besides addresses and CIDRs. */
const PROXY_RANGE_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/** One TRUST_PROXY entry: a range name, an IPv4/IPv6 address, or one with a /prefix. */
function isProxyAddress(entry: string): boolean {
  if (PROXY_RANGE_NAMES.has(entry)) return true;
  const [address = '', prefix, ...rest] = entry.split('/');
  const version = isIP(address);
  if (version === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (version === 4 ? 32 : 128);
}

/**
 * TRUST_PROXY: which proxies' X-Forwarded-For is believed. A hop count (`1`: the nearest proxy),
 * or a comma-separated list of proxy addresses, CIDRs or `loopback`. Unset: no proxy is trusted.
 */
const trustProxy = z
  .string()
  .transform((v) => v.trim())
  .refine((v) => /^\d{1,2}$/.test(v) || v.split(',').every((e) => isProxyAddress(e.trim())), {
    message:
      'must be a hop count such as 1, or a comma-separated list of proxy addresses or CIDRs such as ' +
      '127.0.0.1,10.0.0.0/8, or loopback',
  })
  .transform((v): number | string[] =>
    /^\d+$/.test(v)
      ? Number(v)
      : v
          .split(',')
          .map((e) => e.trim())
          .filter(Boolean),
  );

/**
 * Every environment variable BTalk reads, with its embedded default. The README's configuration
 * table lists the same variables; keep the two together.
 */
const Env = z.object({
  BTALK_ENV: z
    .enum(['development', 'production', 'test'], { message: 'must be development, production or test' })
    .default('development'),
  PORT: z.coerce
    .number({ message: 'must be a number' })
    .int({ message: 'must be a whole number' })
    .min(0, { message: 'must be between 0 and 65535' })
    .max(65535, { message: 'must be between 0 and 65535' })
    .default(8080),
  HOST: z.string().min(1).default('127.0.0.1'),
  ORG_TIME_ZONE: z
    .string()
    .refine(isTimeZone, {
      message: 'must be an IANA time zone name such as Asia/Bangkok or Europe/London (see tz database)',
    })
    .default('Asia/Bangkok'),
  ALLOW_DEVELOPMENT_DIRECTORY_ON_NETWORK: bool.default(false),
  TRUST_PROXY: trustProxy.optional(),
  REQUEST_TIMEOUT_SECONDS: seconds(1, 3600).default(120),
  HEADERS_TIMEOUT_SECONDS: seconds(1, 300).default(10),
  KEEP_ALIVE_TIMEOUT_SECONDS: seconds(1, 3600).default(72),
  /** After SIGTERM, how long the instance keeps serving while /api/ready answers 503 (load balancers notice). */
  SHUTDOWN_DRAIN_SECONDS: seconds(0, 300).default(0),
  /** After SIGTERM, the most a graceful stop may take (drain included) before the process exits 1. */
  SHUTDOWN_TIMEOUT_SECONDS: seconds(1, 3600).default(10),
  PUBLIC_URL: url('the address browsers use, e.g. https://btalk.example.org').optional(),
  ALLOW_HTTP_PUBLIC_URL: bool.default(false),
  /** Page requests at another host than PUBLIC_URL's are sent there (http/publicHost.ts). */
  REDIRECT_TO_PUBLIC_URL: bool.default(true),
  /** Bearer token that opens GET /metrics on the main port (metrics/); unset: not served there. */
  METRICS_TOKEN: z
    .string()
    .min(16, { message: 'must be at least 16 characters (e.g. openssl rand -base64 24)' })
    .optional(),
  /** A port of its own that serves only GET /metrics, without a token; unset: no such listener. */
  METRICS_PORT: z.coerce
    .number({ message: 'must be a number' })
    .int({ message: 'must be a whole number' })
    .min(1, { message: 'must be between 1 and 65535' })
    .max(65535, { message: 'must be between 1 and 65535' })
    .optional(),
  /** Address the metrics port listens on: keep it private (loopback or an internal network). */
  METRICS_HOST: z.string().min(1).default('127.0.0.1'),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, { message: 'must be a postgres:// connection string' })
    .optional(),
  DATABASE_POOL_SIZE: z.coerce
    .number()
    .int({ message: 'must be a whole number of connections' })
    .min(1, { message: 'must be at least 1' })
    .max(500, { message: 'must be at most 500' })
    .default(10),
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\//, { message: 'must be a redis:// connection string' })
    .optional(),
  API_KEY: z.string().min(8, { message: 'must be at least 8 characters' }).optional(),
  LOG_LEVEL: z
    .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], {
      message: 'must be one of fatal, error, warn, info, debug, trace, silent',
    })
    .default('info'),
  BODY_LIMIT_BYTES: z.coerce
    .number({ message: 'must be a number' })
    .int()
    .min(1024, { message: 'must be at least 1024' })
    .default(1024 * 1024),
  WEB_DIST: z.string().min(1).optional(),
  ANALYTICS: bool.default(true),
  WEB_PUSH: bool.default(true),
  VAPID_PUBLIC_KEY: z
    .string()
    .regex(/^[A-Za-z0-9_-]{87}$/, {
      message: 'must be a base64url P-256 public key (npx web-push generate-vapid-keys)',
    })
    .optional(),
  VAPID_PRIVATE_KEY: z
    .string()
    .regex(/^[A-Za-z0-9_-]{43}$/, {
      message: 'must be a base64url P-256 private key (npx web-push generate-vapid-keys)',
    })
    .optional(),
  VAPID_SUBJECT: z
    .string()
    .regex(/^(mailto:\S+@\S+|https:\/\/\S+)$/, { message: 'must be a mailto: address or an https:// URL' })
    .optional(),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\/\S+$/, {
      message: 'must be an smtp:// or smtps:// URL, e.g. smtp://user:pass@mail.example.org:587',
    })
    .optional(),
  SMTP_FROM: z.string().min(3).max(200).optional(),
  NOTIFICATION_EMAIL_DELAY_SECONDS: z.coerce
    .number({ message: 'must be a number of seconds' })
    .int()
    .min(0, { message: 'must be 0 or more seconds' })
    .max(86400, { message: 'must be at most 86400 seconds (one day)' })
    .default(120),
  NOTIFICATION_MAX_ATTEMPTS: z.coerce
    .number({ message: 'must be a number of attempts' })
    .int()
    .min(1, { message: 'must be between 1 and 30' })
    .max(30, { message: 'must be between 1 and 30' })
    .default(8),
  TEAMS_APP_LINK: url('the Teams deep link of the BTalk app').optional(),
  /**
   * Origins besides Teams' own that may frame `/teamtab` and talk to it as its Teams host: only the
   * local test host of the end-to-end tests (refused in production).
   */
  TEAMS_TAB_TEST_HOSTS: z
    .string()
    .regex(/^https?:\/\/[^\s,/]+(,\s*https?:\/\/[^\s,/]+)*$/, {
      message: 'must be a comma-separated list of origins, e.g. http://127.0.0.1:4000',
    })
    .optional(),
  /** The Teams app's id in its manifest (a GUID): deep links into the BTalk tab, and the app package. */
  TEAMS_APP_ID: z.uuid({ message: 'must be a GUID (the id in the Teams app manifest)' }).optional(),
  /** The developer's name in the Teams app package (the organisation that runs BTalk). */
  TEAMS_DEVELOPER_NAME: z
    .string()
    .trim()
    .min(1)
    .max(32, { message: 'must be at most 32 characters' })
    .default('BTalk'),
  /** The Azure Bot's Microsoft App ID (a GUID); unset: no bot, no Teams notifications. */
  TEAMS_BOT_APP_ID: z.string().trim().min(1).optional(),
  /** The Azure Bot's client secret. */
  TEAMS_BOT_APP_PASSWORD: z.string().min(1).optional(),
  /** The bot's Entra ID tenant (single-tenant bots); unset: the Bot Framework's multi-tenant token endpoint. */
  TEAMS_BOT_TENANT_ID: z.string().trim().min(1).optional(),
  /** Where the Bot Framework publishes the keys of the tokens it sends the bot (tests: a local issuer). */
  TEAMS_BOT_OPENID_METADATA_URL: url('the Bot Framework OpenID metadata').default(
    'https://login.botframework.com/v1/.well-known/openidconfiguration',
  ),
  /** The issuer of the Bot Framework's tokens to the bot. */
  TEAMS_BOT_TOKEN_ISSUER: z.string().trim().min(1).default('https://api.botframework.com'),
  /** Where the bot gets its own tokens for the Bot Connector (client credentials; tests: a local endpoint). */
  TEAMS_BOT_TOKEN_URL: url('the bot token endpoint').optional(),
  JWT_SECRET: z
    .string()
    .min(32, { message: 'must be at least 32 characters (e.g. openssl rand -base64 48)' })
    .optional(),
  ACCESS_TOKEN_TTL_SECONDS: z.coerce
    .number({ message: 'must be a number of seconds' })
    .int()
    .min(5, { message: 'must be at least 5 seconds' })
    .max(86400, { message: 'must be at most 86400 seconds (one day)' })
    .default(900),
  ENTRA_TENANT_ID: z
    .string()
    .regex(/^[0-9a-f-]{36}$|^[\w.-]+\.onmicrosoft\.com$/i, {
      message: 'must be the Directory (tenant) ID from the Entra admin centre, a GUID',
    })
    .optional(),
  OIDC_ISSUER: url('the issuer of an OpenID Connect directory, e.g. https://id.example.org').optional(),
  DIRECTORY_CLIENT_ID: z.string().min(1).optional(),
  DIRECTORY_CLIENT_SECRET: z.string().min(1).optional(),
  DIRECTORY_API_AUDIENCE: z
    .string()
    .regex(/^[a-z][\w+.-]*:\S+$/i, { message: 'must be a URI such as api://btalk.example.org/<client id>' })
    .optional(),
  GRAPH_BASE: url('the Microsoft Graph v1.0 base, e.g. https://graph.microsoft.com/v1.0').optional(),
  SIGN_IN_MODE: z.enum(['redirect', 'popup'], { message: 'must be redirect or popup' }).default('redirect'),
  REFRESH_TOKEN_TTL_DAYS: z.coerce
    .number({ message: 'must be a number of days' })
    .int()
    .min(1, { message: 'must be at least 1 day' })
    .max(365, { message: 'must be at most 365 days' })
    .default(30),
  REFRESH_GRACE_SECONDS: z.coerce
    .number({ message: 'must be a number of seconds' })
    .int()
    .min(0, { message: 'must be 0 or more seconds' })
    .max(60, { message: 'must be at most 60 seconds' })
    .default(10),
  DIRECTORY_SYNC_INTERVAL_MINUTES: z.coerce
    .number({ message: 'must be a number of minutes' })
    .int({ message: 'must be a whole number of minutes' })
    .min(0, { message: 'must be between 0 (off) and 10080 minutes' })
    .max(10080, { message: 'must be between 0 (off) and 10080 minutes' })
    .default(60),
  /** Who may mark posts important (issue 17): topic owners and admins, or everyone who may post. */
  ANNOUNCEMENT_AUTHORS: z
    .enum(['owners', 'everyone'], { message: 'must be owners or everyone' })
    .default('owners'),
  AUTH_RATE_LIMIT_PER_MINUTE: z.coerce
    .number({ message: 'must be a number of requests' })
    .int()
    .min(1, { message: 'must be at least 1' })
    .default(60),
  WRITE_RATE_LIMIT_PER_MINUTE: z.coerce
    .number({ message: 'must be a number of requests' })
    .int()
    .min(1, { message: 'must be at least 1' })
    .default(60),
  UPLOAD_RATE_LIMIT_PER_MINUTE: z.coerce
    .number({ message: 'must be a number of requests' })
    .int()
    .min(1, { message: 'must be at least 1' })
    .default(20),
  PAGE_VIEW_RATE_LIMIT_PER_MINUTE: z.coerce
    .number({ message: 'must be a number of requests' })
    .int()
    .min(1, { message: 'must be at least 1' })
    .default(120),
  RATE_LIMIT_REDIS_TIMEOUT_MS: z.coerce
    .number({ message: 'must be a number of milliseconds' })
    .int()
    .min(10, { message: 'must be between 10 and 5000 ms' })
    .max(5000, { message: 'must be between 10 and 5000 ms' })
    .default(250),
  MAX_UPLOAD_BYTES: z.coerce
    .number({ message: 'must be a number of bytes' })
    .int()
    .min(1024, { message: 'must be at least 1024 bytes' })
    .default(25 * 1024 * 1024),
  MAX_UPLOAD_FILES: z.coerce
    .number({ message: 'must be a number' })
    .int()
    .min(1, { message: 'must be between 1 and 20' })
    .max(20, { message: 'must be between 1 and 20' })
    .default(10),
  UPLOAD_MAX_UNPOSTED_FILES: z.coerce
    .number({ message: 'must be a number of files' })
    .int()
    .min(1, { message: 'must be between 1 and 1000' })
    .max(1000, { message: 'must be between 1 and 1000' })
    .default(20),
  UPLOAD_MAX_UNPOSTED_BYTES: z.coerce
    .number({ message: 'must be a number of bytes' })
    .int()
    .min(1024, { message: 'must be at least 1024 bytes' })
    .default(100 * 1024 * 1024),
  UPLOAD_REFUSED_EXTENSIONS: z
    .string()
    .transform((v) =>
      v
        .split(',')
        .map((e) => e.trim().replace(/^\./, '').toLowerCase())
        .filter(Boolean),
    )
    .refine((list) => list.every((e) => REFUSED_EXTENSION_PATTERN.test(e)), {
      message: 'must be file extensions separated by commas, such as exe,msi,bat (letters and digits)',
    })
    .optional(),
  UPLOAD_UNPOSTED_TTL_HOURS: z.coerce
    .number({ message: 'must be a number of hours' })
    .int()
    .min(1, { message: 'must be between 1 and 720 hours' })
    .max(720, { message: 'must be between 1 and 720 hours' })
    .default(24),
  REALTIME_RETENTION_DAYS: z.coerce
    .number({ message: 'must be a number of days' })
    .int()
    .min(1, { message: 'must be at least 1 day' })
    .max(365, { message: 'must be at most 365 days' })
    .default(7),
  REALTIME_ALLOWED_ORIGINS: z
    .string()
    .regex(/^https?:\/\/[^\s,/]+(,\s*https?:\/\/[^\s,/]+)*$/, {
      message:
        'must be a comma-separated list of origins, e.g. https://btalk.example.org,https://teams.example.org',
    })
    .optional(),
  REALTIME_HEARTBEAT_MS: z.coerce
    .number({ message: 'must be a number of milliseconds' })
    .int()
    .min(50, { message: 'must be at least 50 ms' })
    .default(30_000),
  REALTIME_MAX_BUFFERED_BYTES: z.coerce
    .number({ message: 'must be a number of bytes' })
    .int()
    .min(1024, { message: 'must be at least 1024 bytes' })
    .default(4 * 1024 * 1024),
  REALTIME_POLL_MS: z.coerce
    .number({ message: 'must be a number of milliseconds' })
    .int()
    .min(50, { message: 'must be at least 50 ms' })
    .default(2000),
  REALTIME_MAX_SOCKETS_PER_PERSON: z.coerce
    .number({ message: 'must be a number of sockets' })
    .int()
    .min(1, { message: 'must be at least 1' })
    .default(20),
  REALTIME_MESSAGES_PER_10_SECONDS: z.coerce
    .number({ message: 'must be a number of messages' })
    .int()
    .min(1, { message: 'must be at least 1' })
    .default(100),
  /** Attachments in an S3-compatible store (config/s3.ts, docs/storage.md); unset: DATA_DIR/files. */
  S3_BUCKET: z
    .string()
    .regex(S3_BUCKET_PATTERN, {
      message: 'must be a bucket name (3 to 63 letters, digits, dots, hyphens), not an address',
    })
    .optional(),
  S3_REGION: z
    .string()
    .regex(/^[a-z0-9-]{2,32}$/, { message: 'must be a region name such as us-east-1 or eu-central-1' })
    .default('us-east-1'),
  /** Checked in config/s3.ts, which never repeats it whole (it might carry a password). */
  S3_ENDPOINT: z.string().optional(),
  S3_ACCESS_KEY_ID: z.string().trim().min(1).optional(),
  S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  S3_FORCE_PATH_STYLE: bool.optional(),
  S3_PREFIX: z
    .string()
    .regex(S3_PREFIX_PATTERN, {
      message:
        'must be a key prefix such as btalk/ (letters, digits, . _ - and single slashes, no leading /)',
    })
    .optional(),
  S3_SIGNED_DOWNLOADS: bool.default(false),
  S3_SIGNED_URL_SECONDS: seconds(1, 3600).default(60),
});

/** Which directory people sign in with. */
export type DirectoryKind = 'development' | 'entra' | 'oidc';

/** Where people sign in and how BTalk talks to that directory. */
export interface DirectoryConfig {
  /** `development`: the built-in directory; `entra`: Microsoft Entra ID; `oidc`: another issuer. */
  kind: DirectoryKind;
  /** The directory's issuer URL (discovery is read from `<issuer>/.well-known/openid-configuration`). */
  issuer: string;
  /** BTalk's client id at the directory; for the development directory, its built-in client. */
  clientId: string;
  /** BTalk's client secret at the directory; null for the development directory (made at start). */
  clientSecret: string | null;
  /** The one redirect URI the directory sends the browser back to: the web app's `/aad/callback`. */
  redirectUri: string;
  /** The audience of Teams SSO tokens for BTalk's API (the app's Application ID URI). */
  apiAudience: string;
  /** Base of the directory's Graph API (v1.0), or null when the directory has none. */
  graphBase: string | null;
  /** Scopes asked for at sign-in. */
  scopes: string;
  /** Scope of the Graph token BTalk asks for on behalf of a Teams user. */
  graphScope: string;
  /** Whether the web app signs in with a popup or by redirecting the page. */
  signInMode: 'redirect' | 'popup';
}

/** BTalk's validated configuration. */
export interface Config {
  env: 'development' | 'production' | 'test';
  port: number;
  host: string;
  /** The organisation's IANA time zone (ORG_TIME_ZONE): reports show their times in it beside UTC. */
  orgTimeZone: string;
  /**
   * Proxies whose X-Forwarded-For gives the client's address (Fastify's `trustProxy`): false for
   * none, a hop count, or proxy addresses/CIDRs. The sign-in rate limit counts by that address.
   */
  trustProxy: false | number | string[];
  /** Limits on slow clients, in milliseconds (Node's HTTP server). */
  timeouts: {
    /** Whole request, headers and body; WebSockets are not limited once upgraded. */
    requestMs: number;
    /** Request line and headers. */
    headersMs: number;
    /** An idle keep-alive connection is closed after this. */
    keepAliveMs: number;
  };
  /** The graceful stop on SIGTERM (lifecycle.ts). */
  shutdown: {
    /** Serving on, not ready, before the instance stops accepting (SHUTDOWN_DRAIN_SECONDS). */
    drainMs: number;
    /** From the signal on, the most the stop may take; then the process exits 1 (SHUTDOWN_TIMEOUT_SECONDS). */
    timeoutMs: number;
  };
  /** The origin browsers use, without a trailing slash. */
  publicUrl: string;
  /**
   * Whether GET and HEAD page requests at another host than PUBLIC_URL's are redirected there
   * (REDIRECT_TO_PUBLIC_URL, http/publicHost.ts): sign-in and the API only work at that origin.
   */
  redirectToPublicUrl: boolean;
  /**
   * Prometheus metrics (metrics/): GET /metrics on the main port with `token` as a bearer token,
   * and/or a listener of their own at `host`:`port`, without a token. Neither: not served.
   */
  metrics: { token: string | null; port: number | null; host: string };
  dataDir: string;
  /** Attachments in an S3-compatible object store (S3_*); null: the local folder DATA_DIR/files. */
  s3: S3Config | null;
  databaseUrl: string | undefined;
  /** Largest number of PostgreSQL connections this instance opens (DATABASE_POOL_SIZE). */
  databasePoolSize: number;
  redisUrl: string | undefined;
  /** The web client's `x-api-key`. */
  apiKey: string;
  logLevel: string;
  bodyLimitBytes: number;
  /** Folder of the built web app, or null when it should not be served. */
  webDist: string | null;
  features: { analytics: boolean; webPush: boolean };
  teamsAppLink: string | null;
  /** Test-only origins that may frame the Teams tab as its host (TEAMS_TAB_TEST_HOSTS); empty in production. */
  teamsTabTestHosts: string[];
  /** The Teams app's manifest id, for deep links into its tab; null when not configured. */
  teamsAppId: string | null;
  /** The developer's name in the Teams app package (`npm run teams:package`). */
  teamsDeveloperName: string;
  /** The Teams bot (teams/): null when TEAMS_BOT_APP_ID is unset (no bot, no Teams channel). */
  teamsBot: {
    appId: string;
    appPassword: string;
    tenantId: string | null;
    /** The Bot Framework's OpenID metadata: the keys incoming activities are signed with. */
    openIdMetadataUrl: string;
    /** The issuer incoming activity tokens must carry. */
    tokenIssuer: string;
    /** The bot's own token endpoint (client credentials, scope https://api.botframework.com/.default). */
    tokenUrl: string;
  } | null;
  /** The notification engine's channels and outbox (notifications/). */
  notifications: {
    /** VAPID keys from the environment; null means "make them once and keep them in DATA_DIR". */
    vapidKeys: { publicKey: string; privateKey: string } | null;
    /** The VAPID `sub` claim: a contact for push services. */
    vapidSubject: string;
    /** SMTP server for e-mail notifications; null turns e-mail off. */
    smtpUrl: string | null;
    /** The From of notification e-mails. */
    smtpFrom: string;
    /** E-mail waits this long and is not sent if the notification was read meanwhile. */
    emailDelaySeconds: number;
    /** Tries before a delivery becomes a dead letter. */
    maxAttempts: number;
  };
  /** Secret that signs access tokens; null means "make one and keep it in DATA_DIR" (not production). */
  jwtSecret: string | null;
  /** Lifetime of an access token, in seconds. */
  accessTokenTtlSeconds: number;
  /** The directory people sign in with. */
  directory: DirectoryConfig;
  /** Sessions end after this many days without a refresh. */
  refreshTokenTtlDays: number;
  /** How long a just-rotated refresh token still answers with the pair that replaced it. */
  refreshGraceSeconds: number;
  /** Requests per minute that one address may make to each sign-in endpoint. */
  authRateLimitPerMinute: number;
  /** Minutes between two directory syncs (people, admin roles, disabled accounts); 0: only on demand. */
  directorySyncIntervalMinutes: number;
  /**
   * Who may mark their posts important with acknowledgement requested (ANNOUNCEMENT_AUTHORS):
   * `owners` (topic owners and admins) or `everyone` who may post in the topic.
   */
  announcementAuthors: 'owners' | 'everyone';
  /**
   * Per-person limits (http/rateLimits.ts), counted in Redis when REDIS_URL is set (all instances
   * share them), else per instance; a Redis that fails or is slower than `redisTimeoutMs` falls back
   * to this instance's own count.
   */
  rateLimits: {
    /** Writes (POST, PATCH, PUT, DELETE) of posts, comments and reactions per person per minute. */
    writesPerMinute: number;
    /** Attachment uploads per person per minute. */
    uploadsPerMinute: number;
    /** Page views per person (or per address without a session) per minute. */
    pageViewsPerMinute: number;
    /** How long a rate-limit count may wait for Redis before this instance counts alone. */
    redisTimeoutMs: number;
  };
  /** Limits of attachment uploads: bytes per file, and files per upload and per post. */
  uploads: {
    maxBytes: number;
    maxFiles: number;
    /** Files a person may hold uploaded but not yet in a post (their quota). */
    maxUnpostedFiles: number;
    /** Bytes a person may hold uploaded but not yet in a post (their quota). */
    maxUnpostedBytes: number;
    /** Uploads still not in a post after this many hours are deleted (row and file). */
    unpostedTtlHours: number;
    /**
     * File types refused (extensions, lower case, no dot) until an administrator sets their own list:
     * UPLOAD_REFUSED_EXTENSIONS, or executables and scripts.
     */
    refusedExtensions: string[];
  };
  /** The realtime stream (realtime/). */
  realtime: {
    /** Days the event log keeps events; clients further behind get a resync. */
    retentionDays: number;
    /** Origins allowed to open the WebSocket: PUBLIC_URL's and REALTIME_ALLOWED_ORIGINS. */
    allowedOrigins: string[];
    /** Interval of WebSocket pings; a connection that misses one is closed. */
    heartbeatMs: number;
    /** A connection whose unsent data passes this is closed as a slow consumer. */
    maxBufferedBytes: number;
    /** The log is read at least this often even without a commit signal (fallback for lost signals). */
    pollMs: number;
    /** Signed-in sockets one person may hold on one instance (realtime/limits.ts). */
    maxSocketsPerPerson: number;
    /** Messages a socket may send per 10 s; beyond it they are refused, and at twice it the socket closes. */
    messagesPer10Seconds: number;
  };
}

/** The `x-api-key` used when API_KEY is not set (development and tests only). */
export const DEVELOPMENT_API_KEY = 'btalk-web-development-key';

/** Thrown when the environment holds bad values; the message lists each one and how to fix it. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** Reads and validates the configuration from environment variables. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  // An empty variable means "not set", as in most shells' `VAR= cmd`.
  const present = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = Env.safeParse(present);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => {
      const name = String(i.path[0]);
      // A secret's value is never printed: configuration errors end up in logs and tickets.
      const got = SECRET_VARIABLES.has(name) ? 'value hidden' : `got ${JSON.stringify(present[name])}`;
      return `  ${name}: ${i.message} (${got})`;
    });
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  const missing: string[] = [];
  if (e.BTALK_ENV === 'production' && e.TEAMS_TAB_TEST_HOSTS) {
    missing.push(
      '  TEAMS_TAB_TEST_HOSTS: must not be set in production (it lets a test page frame the Teams tab)',
    );
  }
  if (e.BTALK_ENV === 'production' && !e.API_KEY) {
    missing.push('  API_KEY: must be set in production (the web client key sent as x-api-key)');
  }
  if (e.BTALK_ENV === 'production' && !e.JWT_SECRET) {
    missing.push('  JWT_SECRET: must be set in production (signs access tokens; at least 32 characters)');
  }
  if (e.BTALK_ENV === 'production' && e.API_KEY === DEVELOPMENT_API_KEY) {
    missing.push('  API_KEY: must not be the development key in production (e.g. openssl rand -base64 24)');
  }
  if (e.BTALK_ENV === 'production' && e.JWT_SECRET && estimatedSecretBits(e.JWT_SECRET) < MIN_SECRET_BITS) {
    missing.push(
      `  JWT_SECRET: is too easy to guess for production (under about ${MIN_SECRET_BITS} bits: repeated, ` +
        'sequential or few distinct characters); make one with openssl rand -base64 48',
    );
  }
  if (e.BTALK_ENV === 'production' && !e.ALLOW_HTTP_PUBLIC_URL && !e.PUBLIC_URL?.startsWith('https://')) {
    missing.push(
      '  PUBLIC_URL: must be an https:// address in production (tokens and cookies would cross the network ' +
        'in clear); for a lab without TLS, set ALLOW_HTTP_PUBLIC_URL=true',
    );
  }
  if (e.SHUTDOWN_DRAIN_SECONDS >= e.SHUTDOWN_TIMEOUT_SECONDS) {
    missing.push(
      `  SHUTDOWN_DRAIN_SECONDS, SHUTDOWN_TIMEOUT_SECONDS: the drain (${e.SHUTDOWN_DRAIN_SECONDS} s) must be ` +
        `shorter than the timeout (${e.SHUTDOWN_TIMEOUT_SECONDS} s), which counts from the signal and ` +
        'leaves time to finish requests',
    );
  }
  if (e.ENTRA_TENANT_ID && e.OIDC_ISSUER) {
    missing.push('  ENTRA_TENANT_ID, OIDC_ISSUER: set one of them, not both (Entra ID or another issuer)');
  }
  if ((e.ENTRA_TENANT_ID || e.OIDC_ISSUER) && !(e.DIRECTORY_CLIENT_ID && e.DIRECTORY_CLIENT_SECRET)) {
    missing.push(
      '  DIRECTORY_CLIENT_ID, DIRECTORY_CLIENT_SECRET: must be set with ENTRA_TENANT_ID or OIDC_ISSUER ' +
        "(the app registration's client id and a client secret)",
    );
  }
  if (e.BTALK_ENV === 'production' && !e.ENTRA_TENANT_ID && !e.OIDC_ISSUER) {
    missing.push(
      '  ENTRA_TENANT_ID or OIDC_ISSUER: must be set in production (the built-in development directory ' +
        'never runs there); see "Production directory" in the README',
    );
  }
  if (
    e.BTALK_ENV !== 'production' &&
    !e.ENTRA_TENANT_ID &&
    !e.OIDC_ISSUER &&
    !isLoopbackHost(e.HOST) &&
    !e.ALLOW_DEVELOPMENT_DIRECTORY_ON_NETWORK
  ) {
    missing.push(
      `  HOST, ALLOW_DEVELOPMENT_DIRECTORY_ON_NETWORK: HOST ${JSON.stringify(e.HOST)} serves other machines, ` +
        'and the built-in development directory lets anyone sign in as the administrator ' +
        '(admin@btalk.test, password btalk). Listen on 127.0.0.1, set ENTRA_TENANT_ID or OIDC_ISSUER, or, ' +
        'on a network you trust, set ALLOW_DEVELOPMENT_DIRECTORY_ON_NETWORK=true',
    );
  }
  if (e.TEAMS_BOT_APP_ID && !e.TEAMS_BOT_APP_PASSWORD) {
    missing.push("  TEAMS_BOT_APP_PASSWORD: required with TEAMS_BOT_APP_ID (the Azure Bot's client secret)");
  }
  if (Boolean(e.VAPID_PUBLIC_KEY) !== Boolean(e.VAPID_PRIVATE_KEY)) {
    missing.push(
      '  VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY: set both or neither (npx web-push generate-vapid-keys)',
    );
  }
  missing.push(...s3Problems(present, e));
  if (e.METRICS_PORT !== undefined && e.METRICS_PORT === e.PORT) {
    missing.push(
      `  METRICS_PORT: must differ from PORT (${e.PORT}): the metrics listener needs a port of its own`,
    );
  }
  if (missing.length > 0) throw new ConfigError(`Invalid configuration:\n${missing.join('\n')}`);
  const publicUrl = (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, '');
  return {
    env: e.BTALK_ENV,
    port: e.PORT,
    host: e.HOST,
    orgTimeZone: e.ORG_TIME_ZONE,
    trustProxy: e.TRUST_PROXY ?? false,
    timeouts: {
      requestMs: e.REQUEST_TIMEOUT_SECONDS * 1000,
      // Node refuses a headers timeout longer than the request's.
      headersMs: Math.min(e.HEADERS_TIMEOUT_SECONDS, e.REQUEST_TIMEOUT_SECONDS) * 1000,
      keepAliveMs: e.KEEP_ALIVE_TIMEOUT_SECONDS * 1000,
    },
    shutdown: {
      drainMs: e.SHUTDOWN_DRAIN_SECONDS * 1000,
      timeoutMs: e.SHUTDOWN_TIMEOUT_SECONDS * 1000,
    },
    publicUrl,
    redirectToPublicUrl: e.REDIRECT_TO_PUBLIC_URL,
    metrics: { token: e.METRICS_TOKEN ?? null, port: e.METRICS_PORT ?? null, host: e.METRICS_HOST },
    dataDir: e.DATA_DIR === ':memory:' ? e.DATA_DIR : path.resolve(e.DATA_DIR),
    s3: s3Config(e),
    databaseUrl: e.DATABASE_URL,
    databasePoolSize: e.DATABASE_POOL_SIZE,
    redisUrl: e.REDIS_URL,
    apiKey: e.API_KEY ?? DEVELOPMENT_API_KEY,
    logLevel: e.LOG_LEVEL,
    bodyLimitBytes: e.BODY_LIMIT_BYTES,
    webDist: path.resolve(e.WEB_DIST ?? path.join(repoRoot, 'apps/web/dist')),
    features: { analytics: e.ANALYTICS, webPush: e.WEB_PUSH },
    teamsAppLink: e.TEAMS_APP_LINK ?? null,
    teamsTabTestHosts: (e.TEAMS_TAB_TEST_HOSTS ?? '')
      .split(',')
      .map((origin) => origin.trim())
      .filter(Boolean),
    teamsAppId: e.TEAMS_APP_ID ?? null,
    teamsDeveloperName: e.TEAMS_DEVELOPER_NAME,
    teamsBot: e.TEAMS_BOT_APP_ID
      ? {
          appId: e.TEAMS_BOT_APP_ID,
          appPassword: e.TEAMS_BOT_APP_PASSWORD ?? '',
          tenantId: e.TEAMS_BOT_TENANT_ID ?? null,
          openIdMetadataUrl: e.TEAMS_BOT_OPENID_METADATA_URL,
          tokenIssuer: e.TEAMS_BOT_TOKEN_ISSUER,
          tokenUrl:
            e.TEAMS_BOT_TOKEN_URL ??
            `https://login.microsoftonline.com/${e.TEAMS_BOT_TENANT_ID ?? 'botframework.com'}/oauth2/v2.0/token`,
        }
      : null,
    notifications: {
      vapidKeys:
        e.VAPID_PUBLIC_KEY && e.VAPID_PRIVATE_KEY
          ? { publicKey: e.VAPID_PUBLIC_KEY, privateKey: e.VAPID_PRIVATE_KEY }
          : null,
      vapidSubject:
        e.VAPID_SUBJECT ??
        (publicUrl.startsWith('https://') ? publicUrl : `mailto:btalk@${new URL(publicUrl).hostname}`),
      smtpUrl: e.SMTP_URL ?? null,
      smtpFrom: e.SMTP_FROM ?? `BTalk <btalk@${new URL(publicUrl).hostname}>`,
      emailDelaySeconds: e.NOTIFICATION_EMAIL_DELAY_SECONDS,
      maxAttempts: e.NOTIFICATION_MAX_ATTEMPTS,
    },
    jwtSecret: e.JWT_SECRET ?? null,
    accessTokenTtlSeconds: e.ACCESS_TOKEN_TTL_SECONDS,
    directory: directoryConfig(e, publicUrl),
    refreshTokenTtlDays: e.REFRESH_TOKEN_TTL_DAYS,
    refreshGraceSeconds: e.REFRESH_GRACE_SECONDS,
    authRateLimitPerMinute: e.AUTH_RATE_LIMIT_PER_MINUTE,
    directorySyncIntervalMinutes: e.DIRECTORY_SYNC_INTERVAL_MINUTES,
    announcementAuthors: e.ANNOUNCEMENT_AUTHORS,
    rateLimits: {
      writesPerMinute: e.WRITE_RATE_LIMIT_PER_MINUTE,
      uploadsPerMinute: e.UPLOAD_RATE_LIMIT_PER_MINUTE,
      pageViewsPerMinute: e.PAGE_VIEW_RATE_LIMIT_PER_MINUTE,
      redisTimeoutMs: e.RATE_LIMIT_REDIS_TIMEOUT_MS,
    },
    uploads: {
      maxBytes: e.MAX_UPLOAD_BYTES,
      maxFiles: e.MAX_UPLOAD_FILES,
      maxUnpostedFiles: e.UPLOAD_MAX_UNPOSTED_FILES,
      refusedExtensions: [...new Set(e.UPLOAD_REFUSED_EXTENSIONS ?? DEFAULT_REFUSED_EXTENSIONS)].sort(),
      maxUnpostedBytes: e.UPLOAD_MAX_UNPOSTED_BYTES,
      unpostedTtlHours: e.UPLOAD_UNPOSTED_TTL_HOURS,
    },
    realtime: {
      retentionDays: e.REALTIME_RETENTION_DAYS,
      allowedOrigins: [
        new URL(publicUrl).origin,
        ...(e.REALTIME_ALLOWED_ORIGINS ?? '')
          .split(',')
          .map((o) => o.trim())
          .filter(Boolean)
          .map((o) => new URL(o).origin),
      ],
      heartbeatMs: e.REALTIME_HEARTBEAT_MS,
      maxBufferedBytes: e.REALTIME_MAX_BUFFERED_BYTES,
      pollMs: e.REALTIME_POLL_MS,
      maxSocketsPerPerson: e.REALTIME_MAX_SOCKETS_PER_PERSON,
      messagesPer10Seconds: e.REALTIME_MESSAGES_PER_10_SECONDS,
    },
  };
}

/** The client id of BTalk at the built-in development directory. */
export const DEVELOPMENT_CLIENT_ID = 'btalk-web';

function directoryConfig(e: z.infer<typeof Env>, publicUrl: string): DirectoryConfig {
  const redirectUri = `${publicUrl}/aad/callback`;
  const host = new URL(publicUrl).host;
  if (e.ENTRA_TENANT_ID) {
    const clientId = e.DIRECTORY_CLIENT_ID ?? '';
    return {
      kind: 'entra',
      issuer: `https://login.microsoftonline.com/${e.ENTRA_TENANT_ID}/v2.0`,
      clientId,
      clientSecret: e.DIRECTORY_CLIENT_SECRET ?? null,
      redirectUri,
      apiAudience: e.DIRECTORY_API_AUDIENCE ?? `api://${host}/${clientId}`,
      graphBase: (e.GRAPH_BASE ?? 'https://graph.microsoft.com/v1.0').replace(/\/+$/, ''),
      scopes: 'openid profile email offline_access User.Read',
      graphScope: 'https://graph.microsoft.com/User.Read offline_access',
      signInMode: e.SIGN_IN_MODE,
    };
  }
  if (e.OIDC_ISSUER) {
    const clientId = e.DIRECTORY_CLIENT_ID ?? '';
    return {
      kind: 'oidc',
      issuer: e.OIDC_ISSUER.replace(/\/+$/, ''),
      clientId,
      clientSecret: e.DIRECTORY_CLIENT_SECRET ?? null,
      redirectUri,
      apiAudience: e.DIRECTORY_API_AUDIENCE ?? `api://${host}/${clientId}`,
      graphBase: e.GRAPH_BASE?.replace(/\/+$/, '') ?? null,
      scopes: 'openid profile email offline_access',
      graphScope: 'User.Read offline_access',
      signInMode: e.SIGN_IN_MODE,
    };
  }
  return {
    kind: 'development',
    issuer: `${publicUrl}/directory`,
    clientId: DEVELOPMENT_CLIENT_ID,
    clientSecret: null,
    redirectUri,
    apiAudience: `api://${host}/${DEVELOPMENT_CLIENT_ID}`,
    graphBase: `${publicUrl}/directory/graph/v1.0`,
    scopes: 'openid profile email offline_access User.Read',
    graphScope: 'User.Read',
    signInMode: e.SIGN_IN_MODE,
  };
}
