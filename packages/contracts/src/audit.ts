import { z } from 'zod';

/**
 * The kind of client a request says it comes from: the web app in a browser, or the same app inside
 * a Microsoft Teams tab. Recorded in the audit log with the user agent.
 */
export const ClientKind = z.enum(['web', 'teams']);
export type ClientKind = z.infer<typeof ClientKind>;
