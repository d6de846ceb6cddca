import { z } from 'zod';
import { MAX_PAGE_VIEW_PATH_LENGTH } from './limits.ts';

/** `POST /api/analytics/pageviews`: the web app reports that a screen was shown. */
export const PageViewRequest = z.object({
  /** The route path that was shown, e.g. `/topics/123`; no query string or hash. */
  path: z
    .string()
    .min(1)
    .max(MAX_PAGE_VIEW_PATH_LENGTH)
    .regex(/^\/[^?#\s]*$/, { message: 'must be a path that starts with / and has no query, hash or spaces' }),
  /** The language the screen was shown in. */
  locale: z.enum(['th', 'en']).optional(),
});
export type PageViewRequest = z.infer<typeof PageViewRequest>;

/** Answer to a recorded page view. */
export const PageViewResponse = z.object({
  /** Id of the recorded view. */
  id: z.string(),
});
export type PageViewResponse = z.infer<typeof PageViewResponse>;
