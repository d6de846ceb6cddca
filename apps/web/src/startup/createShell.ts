import type { InitConfig } from '@btalk/contracts';
import { ErrorCode } from '@btalk/contracts/constants';
import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import { createBrowserRouter } from 'react-router';
import { createApiClient } from '../api/client.ts';
import { HttpError, isErrorEnvelope } from '../api/errors.ts';
import { createGraphClient } from '../api/graph.ts';
import { createApi } from '../api/index.ts';
import { routes } from '../routes.tsx';
import type { Services } from '../services.tsx';
import { dialogs } from '../stores/dialogs.ts';
import type { SessionStore } from '../stores/session.ts';
import { afterFirstScreen } from './afterFirstScreen.ts';
import { mutationOverlayHooks } from './mutationOverlays.ts';

// Failures the client already answered by navigating (to /login or /terms) need no dialog as well.
const NAVIGATED = new Set<number>([ErrorCode.unauthenticated, ErrorCode.termsNotAccepted]);

/** Shows a failed server call in the error dialog, unless the client already acted on it. */
export function reportFailure(error: unknown): void {
  if (isErrorEnvelope(error) && NAVIGATED.has(error.code)) return;
  dialogs.showError(error);
}

function shouldRetry(failureCount: number, error: unknown): boolean {
  // An answer from the server will be the same answer again; only lost connections are retried.
  if (isErrorEnvelope(error) || error instanceof HttpError) return false;
  return failureCount < 2;
}

/** The router, query cache, API client and Graph client of one running app. */
export interface Shell {
  services: Services;
  router: ReturnType<typeof createBrowserRouter>;
  queryClient: QueryClient;
}

/** Builds the app's parts from the start-up configuration and the session. */
export function createShell(config: InitConfig, session: SessionStore): Shell {
  const router = createBrowserRouter(routes);
  const client = createApiClient({
    apiBase: config.apiBase,
    apiKey: config.apiKey,
    session,
    redirectUri: `${window.location.origin}/aad/callback`,
    navigation: {
      toTerms: () => void router.navigate('/terms', { replace: true }),
      // Already there (signed out, or signing in): a second visit would lose what the page shows.
      toLogin: () => {
        if (router.state.location.pathname !== '/login') void router.navigate('/login');
      },
    },
  });
  const queryClient = new QueryClient({
    // A query or mutation with `meta: { silent: true }` shows its failure itself (an inline error or a fallback).
    queryCache: new QueryCache({
      onError: (error, query) => {
        if (query.meta?.silent !== true) reportFailure(error);
      },
    }),
    mutationCache: new MutationCache({
      // `meta: { overlay: 'spinner' }` shows the spinner dialog while the mutation runs.
      ...mutationOverlayHooks(),
      onError: (error, _variables, _result, mutation) => {
        if (mutation.meta?.silent !== true) reportFailure(error);
      },
    }),
    defaultOptions: { queries: { retry: shouldRetry, staleTime: 30_000 } },
  });
  const services: Services = {
    config,
    session,
    api: createApi(client),
    axiosCache: createGraphClient(config.directory.graphBase, session),
  };
  // The end of the first screen is watched from the start, on every screen (its performance mark is what
  // the first-load measurement counts from); being here, the watcher is part of the entry chunk, not a
  // chunk of its own that the layout and Home would both ask for.
  void afterFirstScreen(queryClient);
  return { services, router, queryClient };
}
