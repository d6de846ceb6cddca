import { MAX_PAGE_VIEW_PATH_LENGTH } from '@btalk/contracts/constants';
import { useEffect } from 'react';
import { useLocation } from 'react-router';
import { currentLanguage } from '../i18n/index.ts';
import { useServices } from '../services.tsx';

// The page-view contract takes paths up to this length.

/**
 * On every navigation: remembers the page as the last page (except /aad/callback, /login, /terms)
 * and, when the configuration enables analytics, records a page view on this server only.
 */
export function RouteTracker() {
  const { pathname, search, hash } = useLocation();
  const { session, api, config } = useServices();
  useEffect(() => {
    session.rememberPage(pathname, `${pathname}${search}${hash}`);
    if (config.features.analytics && pathname.length <= MAX_PAGE_VIEW_PATH_LENGTH) {
      // A lost page view is not worth interrupting anyone for.
      api.analytics.pageView({ path: pathname, locale: currentLanguage() }).catch(() => undefined);
    }
  }, [pathname, search, hash, session, api, config]);
  return null;
}
