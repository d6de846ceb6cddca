import { RealtimeProvider } from '../../realtime/RealtimeProvider.tsx';
import { DefaultLayout } from './DefaultLayout.tsx';

/**
 * The frame of every screen in the default layout, loaded only once a session is known (or in the
 * Teams tab): the tab's realtime connection around the default layout. Signed-out people go from the
 * session gate straight to /login without loading any of it.
 */
export default function AppLayout() {
  return (
    <RealtimeProvider>
      <DefaultLayout />
    </RealtimeProvider>
  );
}
