import type { Config } from '../config/index.ts';

/** The personal tab's entity id in the app manifest (the tab's content URL is `${PUBLIC_URL}/teamtab`). */
export const TEAMS_TAB_ENTITY_ID = 'btalk';

/**
 * A link that opens `path` (a web route such as `/topics/<id>#post-3` or `/calltree/event/<id>`) in
 * BTalk's personal tab inside Teams: the tab reads it as `context.page.subPageId` and goes there.
 * Without TEAMS_APP_ID there is no tab to link to: the web app's own URL instead.
 */
export function tabDeepLink(config: Pick<Config, 'teamsAppId' | 'publicUrl'>, path: string): string {
  const route = path.startsWith('/') ? path : `/${path}`;
  if (!config.teamsAppId) return `${config.publicUrl}${route}`;
  const context = encodeURIComponent(JSON.stringify({ subEntityId: route }));
  return `https://teams.microsoft.com/l/entity/${encodeURIComponent(config.teamsAppId)}/${TEAMS_TAB_ENTITY_ID}?context=${context}`;
}
