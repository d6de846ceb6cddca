import '@fontsource/sarabun/400.css';
import '@fontsource/sarabun/500.css';
import '@fontsource/sarabun/700.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App, Themed } from './App.tsx';
import { startI18n } from './i18n/index.ts';
import { createShell } from './startup/createShell.ts';
import { fetchInitConfig } from './startup/initConfig.ts';
import { StartupError } from './startup/StartupError.tsx';
import { createSessionStore, SESSION_STORAGE_KEY } from './stores/session.ts';

/**
 * Start-up (SPEC.md section 1): fetch the configuration from our own origin, then mount on #app with
 * the API, the `axiosCache` Graph client and analytics. A failed fetch shows a retry, never a blank page.
 */
async function start() {
  const element = document.getElementById('app');
  if (!element) throw new Error('index.html has no element with id "app": the app has nowhere to mount.');
  const root = createRoot(element);
  await startI18n();
  const session = createSessionStore(localStorage);
  // Another tab signing in or out changes this tab's session too.
  window.addEventListener('storage', (event) => {
    if (event.key === SESSION_STORAGE_KEY) session.reload();
  });

  const boot = async () => {
    try {
      const config = await fetchInitConfig();
      root.render(
        <StrictMode>
          <App shell={createShell(config, session)} />
        </StrictMode>,
      );
    } catch {
      root.render(
        <StrictMode>
          <Themed>
            <StartupError onRetry={boot} />
          </Themed>
        </StrictMode>,
      );
    }
  };
  await boot();
}

void start();
