import type { SignInResponse } from '@btalk/contracts';
import { ErrorCode } from '@btalk/contracts/constants';
import { app, authentication } from '@microsoft/teams-js';
import type { QueryClient } from '@tanstack/react-query';
import { isErrorEnvelope } from '../../api/errors.ts';
import { ME_QUERY_KEY } from '../../api/me.ts';
import type { Services } from '../../services.tsx';
import { type TeamsTheme, teamsThemeOf } from '../../stores/teams.ts';

/**
 * How long `/teamtab` waits for Teams to answer: outside any frame teams-js fails at once, in a
 * frame that is not Teams nobody answers.
 */
export const TEAMS_CONNECT_TIMEOUT_MS = 5000;

/** The path of the consent popup that the tab asks Teams to open. */
export const TEAMS_CONSENT_PATH = '/teamtab/consent';

/** What the tab uses of Teams' context. */
export interface TeamsTabContext {
  theme: TeamsTheme;
  /** Teams' language, e.g. `th-TH` or `en-US`. */
  locale: string;
  /** The BTalk page a deep link asks for (`subEntityId` of the link), or null. */
  subPageId: string | null;
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`Teams did not answer within ${ms} ms`)), ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}

/**
 * Connects to the Teams host (`app.initialize`) and reads its context; answers null outside Teams.
 * `testHosts`: origins besides Teams' own accepted as the host (the tests' local host page only).
 */
export async function connectToTeams(
  testHosts: string[],
  timeoutMs = TEAMS_CONNECT_TIMEOUT_MS,
): Promise<TeamsTabContext | null> {
  try {
    await withTimeout(app.initialize(testHosts.length > 0 ? testHosts : undefined), timeoutMs);
    const context = await withTimeout(app.getContext(), timeoutMs);
    return {
      theme: teamsThemeOf(context.app.theme),
      locale: context.app.locale,
      subPageId: context.page.subPageId ?? null,
    };
  } catch {
    return null;
  }
}

/** Calls `onChange` with each theme Teams switches to. */
export function onTeamsThemeChange(onChange: (theme: TeamsTheme) => void): void {
  app.registerOnThemeChangeHandler((theme) => onChange(teamsThemeOf(theme)));
}

/** BTalk's language for Teams' locale: Thai for `th-*`, English otherwise. */
export function languageOfTeamsLocale(locale: string): 'th' | 'en' {
  return locale.toLowerCase().startsWith('th') ? 'th' : 'en';
}

/** Where a deep link's `subPageId` leads: a BTalk path (never another site), else Home. */
export function deepLinkTarget(subPageId: string | null): string {
  if (!subPageId?.startsWith('/') || subPageId.startsWith('//') || subPageId.includes('\\')) {
    return '/';
  }
  return subPageId;
}

/**
 * Signs in with Teams' single sign-on token (`authentication.getAuthToken`, `POST /api/auth/team`)
 * and stores the session. Answers 'consent' when the directory needs the person's consent first.
 */
export async function signInWithTeamsToken(
  { session, api }: Services,
  queryClient: QueryClient,
): Promise<'signedIn' | 'consent'> {
  const token = await authentication.getAuthToken();
  let answer: SignInResponse;
  try {
    answer = await api.auth.signInWithTeams({ token });
  } catch (error) {
    if (isErrorEnvelope(error) && error.code === ErrorCode.consentRequired) return 'consent';
    throw error;
  }
  session.clearTokens();
  queryClient.clear();
  await session.setTokens({ aadToken: answer.aadAccessToken });
  session.setWaitingForAadToken(false);
  await session.setTokens({ accessToken: answer.accessToken, refreshToken: answer.refreshToken });
  queryClient.setQueryData(ME_QUERY_KEY, answer.user);
  return 'signedIn';
}

/** Asks Teams to open the consent popup (`authentication.authenticate`); resolves once it succeeded. */
export async function askForConsent(): Promise<void> {
  await authentication.authenticate({
    url: `${window.location.origin}${TEAMS_CONSENT_PATH}`,
    width: 600,
    height: 640,
  });
}

/** In the consent popup, once the directory sign-in (and so the consent) is done: tells Teams. */
export async function notifyTeamsConsentDone(testHosts: string[]): Promise<void> {
  await app.initialize(testHosts.length > 0 ? testHosts : undefined);
  authentication.notifySuccess('consented');
}
