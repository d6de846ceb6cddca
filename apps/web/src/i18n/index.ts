import i18n, { type BackendModule, type LanguageDetectorModule } from 'i18next';
import { initReactI18next } from 'react-i18next';

/** The languages BTalk speaks; English is the fallback. */
export const LANGUAGES = ['en', 'th'] as const;
/** A language BTalk speaks. */
export type Language = (typeof LANGUAGES)[number];

/** localStorage key that remembers the chosen language. */
export const LANGUAGE_STORAGE_KEY = 'btalk_language';

// Each namespace is its own file, loaded when needed: the common texts of the language in use at
// start-up (not those of both languages: the first screen's budget), a scene's with the scene. Later
// features add files, not lines.
const localeFiles = import.meta.glob<Record<string, unknown>>('./locales/*/*.json', { import: 'default' });

const localeBackend: BackendModule = {
  type: 'backend',
  callbackApi: true,
  init() {},
  read(language, namespace, callback) {
    const load = localeFiles[`./locales/${language}/${namespace}.json`];
    if (!load) {
      callback(new Error(`No translations i18n/locales/${language}/${namespace}.json: add the file.`), false);
      return;
    }
    load().then(
      (data) => callback(null, data),
      (error: Error) => callback(error, false),
    );
  },
};

/**
 * The language: the one the person picked on this device, else the browser's first that BTalk speaks
 * (i18next narrows "th-TH" to "th" and falls back to English). The choice is kept in localStorage.
 */
export const languageDetector: LanguageDetectorModule = {
  type: 'languageDetector',
  detect() {
    let picked: string | null = null;
    try {
      picked = localStorage.getItem(LANGUAGE_STORAGE_KEY);
    } catch {
      // Storage refused (a privacy mode): follow the browser.
    }
    return picked ? [picked] : [...navigator.languages];
  },
  cacheUserLanguage(language) {
    try {
      localStorage.setItem(LANGUAGE_STORAGE_KEY, language);
    } catch {
      // Not kept: the next visit follows the browser again.
    }
  },
};

/** The language in use, narrowed to one BTalk speaks. */
export function currentLanguage(): Language {
  return i18n.resolvedLanguage === 'th' ? 'th' : 'en';
}

/** Starts react-i18next: the language follows the browser until the person picks one, which is kept. */
export async function startI18n(): Promise<typeof i18n> {
  if (i18n.isInitialized) return i18n;
  i18n.on('languageChanged', () => {
    document.documentElement.lang = currentLanguage();
  });
  await i18n
    .use(localeBackend)
    .use(languageDetector)
    .use(initReactI18next)
    .init({
      supportedLngs: [...LANGUAGES],
      nonExplicitSupportedLngs: true,
      load: 'languageOnly',
      fallbackLng: 'en',
      ns: ['common'],
      defaultNS: 'common',
      interpolation: { escapeValue: false },
    });
  return i18n;
}

/**
 * A lazily loaded part's code together with the texts it shows: with `lazyOnFirstUse`, a part whose
 * namespace was not loaded yet would otherwise suspend when it first draws, and the screen's
 * `Suspense` around it would swap what is on screen for "Loading..." (Home's lists, while "New
 * message" opened) and drop the keyboard focus.
 */
export async function withTexts<T>(code: Promise<T>, ...namespaces: string[]): Promise<T> {
  const [module] = await Promise.all([code, i18n.loadNamespaces(namespaces)]);
  return module;
}

export { i18n };
