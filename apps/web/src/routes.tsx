import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense } from 'react';
import { Navigate, Outlet, type RouteObject, useLocation } from 'react-router';
import { TERMS_GATE_KEY } from './api/terms.ts';
import { CenteredLayout } from './components/layout/CenteredLayout.tsx';
import { GlobalOverlays } from './components/overlays/GlobalOverlays.tsx';
import { RouteTracker } from './components/RouteTracker.tsx';
import { SceneLoading } from './components/SceneLoading.tsx';
import { currentLanguage } from './i18n/index.ts';
import { useServices } from './services.tsx';
import { useStore } from './stores/createStore.ts';

/**
 * THE SWITCH: when true, every screen under the default layout (except the Teams tab, which signs in
 * with Teams) sends people without a session to /login.
 */
export const SIGN_IN_REQUIRED: boolean = true;

/** How long the session gate trusts what it knows about the person's terms acceptance. */
const TERMS_CHECK_STALE_MS = 60_000;

// Every screen is its own chunk: the first screen loads only the shell and itself. The default
// layout (with the realtime connection) is one too, behind the session gate.
const AppLayout = lazy(() => import('./components/layout/AppLayout.tsx'));
const Home = lazy(() => import('./scenes/Home/Home.tsx'));
const Terms = lazy(() => import('./scenes/Terms/Terms.tsx'));
const Topic = lazy(() => import('./scenes/Topic/Topic.tsx'));
const TopicNew = lazy(() => import('./scenes/TopicNew/TopicNew.tsx'));
const Acknowledgements = lazy(() => import('./scenes/Acknowledgements/Acknowledgements.tsx'));
const TeamTab = lazy(() => import('./scenes/TeamTab/TeamTab.tsx'));
const TeamsConsent = lazy(() => import('./scenes/TeamTab/TeamsConsent.tsx'));
const CallTree = lazy(() => import('./scenes/CallTree/CallTree.tsx'));
const CallTreeEvent = lazy(() => import('./scenes/CallTreeEvent/CallTreeEvent.tsx'));
const Login = lazy(() => import('./scenes/Login/Login.tsx'));
const AadCallback = lazy(() => import('./scenes/AadCallback/AadCallback.tsx'));
const NotFound = lazy(() => import('./scenes/NotFound/NotFound.tsx'));
const Unsubscribe = lazy(() => import('./scenes/Unsubscribe/Unsubscribe.tsx'));
const TermsAdmin = lazy(() => import('./scenes/TermsAdmin/TermsAdmin.tsx'));
const DeliveriesAdmin = lazy(() => import('./scenes/DeliveriesAdmin/DeliveriesAdmin.tsx'));
const PeopleAdmin = lazy(() => import('./scenes/PeopleAdmin/PeopleAdmin.tsx'));
const UploadsAdmin = lazy(() => import('./scenes/UploadsAdmin/UploadsAdmin.tsx'));
const NotificationSettings = lazy(() => import('./scenes/NotificationSettings/NotificationSettings.tsx'));

/**
 * Sends people without a session to /login when SIGN_IN_REQUIRED is on, and people who have not
 * accepted the current terms to /terms. The API answers 4404 to them as well, but a screen that has
 * not called it yet (or never does) would otherwise stay open after a new version is published.
 */
function SessionGate() {
  const { session, api } = useServices();
  const { pathname } = useLocation();
  const signedIn = useStore(session, (s) => s.btalk_token !== null);
  const terms = useQuery({
    queryKey: TERMS_GATE_KEY,
    queryFn: () => api.terms.current(currentLanguage()),
    enabled: SIGN_IN_REQUIRED && signedIn,
    staleTime: TERMS_CHECK_STALE_MS,
    // A check in the background: when it fails, the API's own 4404 answers still send people to /terms.
    meta: { silent: true },
  });
  if (SIGN_IN_REQUIRED && !signedIn) return <Navigate to="/login" replace />;
  if (terms.data && terms.data.acceptedAt === null && pathname !== '/terms') {
    return <Navigate to="/terms" replace />;
  }
  return <Outlet />;
}

/** Every route has the global overlays beside it and is tracked (last page, page views). */
function Root() {
  const { config } = useServices();
  return (
    <>
      <RouteTracker />
      <Suspense fallback={<SceneLoading />}>
        <Outlet />
      </Suspense>
      <GlobalOverlays teamsAppLink={config.teamsAppLink} />
    </>
  );
}

/** The routes of SPEC.md section 2. */
export const routes: RouteObject[] = [
  {
    element: <Root />,
    children: [
      {
        element: <SessionGate />,
        children: [
          {
            element: <AppLayout />,
            children: [
              { index: true, element: <Home /> },
              { path: 'terms', element: <Terms /> },
              { path: 'topics/new', element: <TopicNew /> },
              { path: 'topics/:id', element: <Topic /> },
              { path: 'topics/:topicId/posts/:postId/acknowledgements', element: <Acknowledgements /> },
              { path: 'calltree', element: <CallTree /> },
              { path: 'calltree/event/:id', element: <CallTreeEvent /> },
              { path: 'admin/terms', element: <TermsAdmin /> },
              { path: 'admin/notifications', element: <DeliveriesAdmin /> },
              { path: 'admin/people', element: <PeopleAdmin /> },
              { path: 'admin/uploads', element: <UploadsAdmin /> },
              { path: 'settings/notifications', element: <NotificationSettings /> },
            ],
          },
        ],
      },
      // Inside Teams the tab signs in with Teams' own token, never through /login.
      { element: <AppLayout />, children: [{ path: 'teamtab', element: <TeamTab /> }] },
      {
        // The consent popup that Teams opens for the tab.
        path: 'teamtab/consent',
        element: (
          <CenteredLayout>
            <TeamsConsent />
          </CenteredLayout>
        ),
      },
      {
        path: 'login',
        element: (
          <CenteredLayout>
            <Login />
          </CenteredLayout>
        ),
      },
      {
        path: 'unsubscribe',
        element: (
          <CenteredLayout>
            <Unsubscribe />
          </CenteredLayout>
        ),
      },
      {
        path: 'aad/callback',
        element: (
          <CenteredLayout>
            <AadCallback />
          </CenteredLayout>
        ),
      },
      {
        path: '*',
        element: (
          <CenteredLayout>
            <NotFound />
          </CenteredLayout>
        ),
      },
    ],
  },
];
