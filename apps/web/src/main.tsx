import '@fontsource/sarabun/400.css';
import '@fontsource/sarabun/500.css';
import '@fontsource/sarabun/700.css';
import type { InitConfig } from '@btalk/contracts';
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
  const session = createSessionStore(localStorage);
  // The configuration loads while the texts start.
  let firstConfig: Promise<InitConfig> | null = fetchInitConfig();
  // Awaited in boot(); until then a failure is not "unhandled".
  firstConfig.catch(() => undefined);
  await startI18n();
  // Another tab signing in or out changes this tab's session too.
  window.addEventListener('storage', (event) => {
    if (event.key === SESSION_STORAGE_KEY) session.reload();
  });

  const boot = async () => {
    try {
      // The first try uses the fetch started with the texts; a retry fetches again.
      const config = await (firstConfig ?? fetchInitConfig());
      root.render(
        <StrictMode>
          <App shell={createShell(config, session)} />
        </StrictMode>,
      );
    } catch {
      firstConfig = null;
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
