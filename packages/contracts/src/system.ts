import { z } from 'zod';

/** `GET /api/health`: the process is alive. */
export const HealthResponse = z.object({
  /** Always `ok` when the server answers. */
  status: z.literal('ok'),
  /** The server's version (from its package.json). */
  version: z.string(),
  /** Seconds since the process started. */
  uptimeSeconds: z.number(),
});
export type HealthResponse = z.infer<typeof HealthResponse>;

/** `GET /api/ready`: the server can serve traffic (database reachable, migrations applied). */
export const ReadyResponse = z.object({
  /** `ready` when every check passed. */
  status: z.literal('ready'),
  /** Which database the server uses. */
  database: z.enum(['sqlite', 'postgres']),
  /** The name of the newest applied migration. */
  migration: z.string().nullable(),
});
export type ReadyResponse = z.infer<typeof ReadyResponse>;

/**
 * `GET /__/firebase/init.json`: the runtime configuration the web app fetches before it mounts.
 * Never holds a secret: everything here is visible to any browser.
 */
export const InitConfig = z.object({
  /** The product's display name. */
  productName: z.string(),
  /** Base address of the product API, e.g. `http://localhost:8080/api`. */
  apiBase: z.string(),
  /** The web client's key, sent as `x-api-key` on every API request (an identifier, not a secret). */
  apiKey: z.string(),
  /** How the browser signs in. */
  directory: z.object({
    /** `development` for the built-in directory, `entra` for Microsoft Entra ID, `oidc` for another issuer. */
    kind: z.enum(['development', 'entra', 'oidc']),
    /** Whether sign-in opens a popup or redirects the whole page. */
    signInMode: z.enum(['redirect', 'popup']),
    /** Base address of the directory's Graph API, used by the cached Graph client. */
    graphBase: z.string(),
  }),
  /** Link that opens the Microsoft Teams app, for the notification dialog's "open app" button. */
  teamsAppLink: z.string().nullable(),
  /**
   * Origins besides Teams' own that the Teams tab accepts as its host (teams-js `validMessageOrigins`):
   * only a local test host, set with TEAMS_TAB_TEST_HOSTS outside production; usually empty.
   */
  teamsTabTestHosts: z.array(z.string()),
  /** Switches for optional features. */
  features: z.object({
    /** Page views are sent to this server's analytics endpoint. */
    analytics: z.boolean(),
    /** Browser push notifications are offered. */
    webPush: z.boolean(),
  }),
  /** Limits of attachments, so the web app can refuse and word them before sending a byte. */
  uploads: z.object({
    /** Largest file, in bytes (MAX_UPLOAD_BYTES). */
    maxBytes: z.number().int(),
    /** Most files in one upload and one post (MAX_UPLOAD_FILES). */
    maxFiles: z.number().int(),
  }),
  /** Server version, for support. */
  version: z.string(),
});
export type InitConfig = z.infer<typeof InitConfig>;
