import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { ScenePage } from '../../components/ScenePage.tsx';
import { SignInPrompt, StateMessage, useSignedIn } from '../../components/SignInPrompt.tsx';

// The topic list, search and their MUI parts load only for a signed-in person (first-load budget).
const MyTopics = lazy(() => import('./components/MyTopics.tsx'));

/** The home screen (`/`): my topics with unread counts and last activity, search, "New topic". */
export default function Home() {
  const { t } = useTranslation('home');
  const signedIn = useSignedIn();

  if (!signedIn) {
    return (
      <ScenePage title={t('title')}>
        <SignInPrompt text={t('signInText')} />
      </ScenePage>
    );
  }
  return (
    <ScenePage title={t('title')}>
      <Suspense fallback={<StateMessage text={t('loading')} />}>
        <MyTopics />
      </Suspense>
    </ScenePage>
  );
}
