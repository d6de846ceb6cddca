import type { InitConfig } from '@btalk/contracts';

/** Where the runtime configuration lives, on the app's own origin (SPEC.md section 7). */
export const INIT_CONFIG_PATH = '/__/firebase/init.json';

/** Why the configuration could not be loaded; the start-up screen offers a retry. */
export class InitConfigError extends Error {
  override name = 'InitConfigError';
}

/**
 * Fetches the start-up configuration. Checked by hand rather than with the zod contract, which would
 * add the whole of zod to the first screen's JavaScript for one object.
 */
export async function fetchInitConfig(fetchImpl: typeof fetch = fetch): Promise<InitConfig> {
  let response: Response;
  try {
    response = await fetchImpl(INIT_CONFIG_PATH, {
      cache: 'no-cache',
      headers: { accept: 'application/json' },
    });
  } catch (error) {
    throw new InitConfigError(`${INIT_CONFIG_PATH} could not be fetched: ${String(error)}`);
  }
  if (!response.ok) throw new InitConfigError(`${INIT_CONFIG_PATH} answered HTTP ${response.status}`);
  const config = (await response.json().catch(() => null)) as InitConfig | null;
  if (
    !config ||
    typeof config.apiBase !== 'string' ||
    typeof config.apiKey !== 'string' ||
    typeof config.directory?.graphBase !== 'string' ||
    typeof config.features?.analytics !== 'boolean'
  ) {
    throw new InitConfigError(
      `${INIT_CONFIG_PATH} is not a BTalk configuration (apiBase, apiKey, directory, features)`,
    );
  }
  return config;
}
