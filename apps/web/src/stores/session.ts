import { createStore, type Store } from './createStore.ts';
import { createTokenCipher, type TokenCipher } from './tokenCipher.ts';

/** The localStorage key that holds the whole persisted session (SPEC.md section 3). */
export const SESSION_STORAGE_KEY = 'btalk';

/** The session as the browser keeps it. Product tokens are held sealed; only the API client unseals them. */
export interface SessionState {
  /** The product access token, AES-GCM sealed. */
  btalk_token: string | null;
  /** The refresh token, AES-GCM sealed. */
  btalk_refresh: string | null;
  /** The directory (Graph) access token, plain: the Graph client sends it as it is. */
  aad_token: string | null;
  /** The last remembered page, where sign-in returns to. */
  last_page: string;
  /**
   * The person signed out here and has not signed in since: /login waits for "Sign in" (also after
   * a reload) and the directory is asked to let them choose the account.
   */
  signed_out: boolean;
  /** Not persisted: sign-in is waiting for the directory token. */
  waiting_for_aad_token: boolean;
}

type Persisted = Omit<SessionState, 'waiting_for_aad_token'>;

const EMPTY: Persisted = {
  btalk_token: null,
  btalk_refresh: null,
  aad_token: null,
  last_page: '/',
  signed_out: false,
};

/**
 * Routes that are never remembered as the last page (SPEC.md section 2). /unsubscribe too: its link
 * carries a token, and no one signs in to be sent back to it.
 */
const NOT_REMEMBERED = new Set(['/aad/callback', '/login', '/terms', '/unsubscribe']);

/** Whether a route's path is remembered as the last page. */
export function isRemembered(pathname: string): boolean {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  return !NOT_REMEMBERED.has(path);
}

/** Tokens to store; a field left out keeps its current value. */
export interface TokenUpdate {
  accessToken?: string;
  refreshToken?: string;
  aadToken?: string;
}

/** The session store: persisted under one localStorage key, tokens sealed with the token cipher. */
export interface SessionStore extends Store<SessionState> {
  /** The unsealed access token, or null when there is none (or it cannot be unsealed). */
  accessToken(): Promise<string | null>;
  /** The unsealed refresh token, or null. */
  refreshToken(): Promise<string | null>;
  /** Seals and stores the given tokens. */
  setTokens(tokens: TokenUpdate): Promise<void>;
  /** Forgets all three tokens (signing in again, signing out). */
  clearTokens(): void;
  /** Forgets the tokens and remembers the explicit sign-out, until the next session is stored. */
  signOut(): void;
  /** Remembers `path` as the last page unless its route is one that is never remembered. */
  rememberPage(pathname: string, fullPath: string): void;
  setWaitingForAadToken(waiting: boolean): void;
  /** Re-reads the persisted session, e.g. after another tab changed it. */
  reload(): void;
}

function read(storage: Storage): Persisted {
  try {
    const raw = storage.getItem(SESSION_STORAGE_KEY);
    if (!raw) return EMPTY;
    const parsed = JSON.parse(raw) as Partial<Persisted>;
    const text = (v: unknown) => (typeof v === 'string' && v ? v : null);
    return {
      btalk_token: text(parsed.btalk_token),
      btalk_refresh: text(parsed.btalk_refresh),
      aad_token: text(parsed.aad_token),
      last_page:
        typeof parsed.last_page === 'string' && parsed.last_page.startsWith('/') ? parsed.last_page : '/',
      signed_out: parsed.signed_out === true,
    };
  } catch {
    // A hand-edited or foreign value: start from an empty session rather than fail to start.
    return EMPTY;
  }
}

/** Creates the session store over `storage` (localStorage in the browser). */
export function createSessionStore(
  storage: Storage,
  cipher: TokenCipher = createTokenCipher(),
): SessionStore {
  const store = createStore<SessionState>({ ...read(storage), waiting_for_aad_token: false });
  const persist = () => {
    const { waiting_for_aad_token: _notPersisted, ...persisted } = store.getState();
    storage.setItem(SESSION_STORAGE_KEY, JSON.stringify(persisted));
  };
  const unseal = async (sealed: string | null) => (sealed ? cipher.decrypt(sealed) : null);
  return {
    ...store,
    accessToken: () => unseal(store.getState().btalk_token),
    refreshToken: () => unseal(store.getState().btalk_refresh),
    async setTokens({ accessToken, refreshToken, aadToken }) {
      const patch: Partial<SessionState> = {};
      // A new session ends the signed-out state.
      if (accessToken !== undefined) patch.signed_out = false;
      if (accessToken !== undefined) patch.btalk_token = await cipher.encrypt(accessToken);
      if (refreshToken !== undefined) patch.btalk_refresh = await cipher.encrypt(refreshToken);
      if (aadToken !== undefined) patch.aad_token = aadToken;
      store.setState(patch);
      persist();
    },
    clearTokens() {
      store.setState({ btalk_token: null, btalk_refresh: null, aad_token: null });
      persist();
    },
    signOut() {
      store.setState({ btalk_token: null, btalk_refresh: null, aad_token: null, signed_out: true });
      persist();
    },
    rememberPage(pathname, fullPath) {
      if (!isRemembered(pathname) || store.getState().last_page === fullPath) return;
      store.setState({ last_page: fullPath });
      persist();
    },
    setWaitingForAadToken(waiting) {
      store.setState({ waiting_for_aad_token: waiting });
    },
    reload() {
      store.setState(read(storage));
    },
  };
}
