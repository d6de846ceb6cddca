import type { AadResponse, CodeRequest, LogoutResponse, SignInResponse, TeamRequest } from '@btalk/contracts';
import type { ApiClient } from './client.ts';

/** `/api/auth`: signing in with the directory, and signing out (the client itself does the refresh). */
export function authApi(client: ApiClient) {
  return {
    /**
     * The directory's sign-in URL for this attempt (state, nonce and PKCE are kept by the server);
     * `selectAccount` after a sign-out, so the directory asks who signs in.
     */
    signInUrl: (redirectUri: string, selectAccount = false) =>
      client.get<AadResponse>('/auth/aad', {
        redirectUri,
        ...(selectAccount ? { prompt: 'select_account' } : {}),
      }),
    /** Trades the callback's `code`, `state` and `iss` for a session. */
    exchangeCode: (callback: CodeRequest) => client.post<SignInResponse>('/auth/code', callback),
    /** Signs in with a Teams tab's single sign-on token. */
    signInWithTeams: (request: TeamRequest) => client.post<SignInResponse>('/auth/team', request),
    /** Ends this session on the server: its refresh tokens stop working. */
    signOut: () => client.post<LogoutResponse>('/auth/logout'),
  };
}
