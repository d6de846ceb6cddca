import i18n, { type BackendModule } from 'i18next';
import LanguageDetector from 'i18next-browser-languagedetector';
import { initReactI18next } from 'react-i18next';
import enCommon from './locales/en/common.json';
import thCommon from './locales/th/common.json';

/** The languages BTalk speaks; English is the fallback. */
export const LANGUAGES = ['en', 'th'] as const;
/** A language BTalk speaks. */
export type Language = (typeof LANGUAGES)[number];

/** localStorage key that remembers the chosen language. */
export const LANGUAGE_STORAGE_KEY = 'btalk_language';

// Each scene's namespace is its own file, loaded with the scene: later features add files, not lines.
const sceneFiles = import.meta.glob<Record<string, unknown>>(
  ['./locales/*/*.json', '!./locales/*/common.json'],
  { import: 'default' },
);

const sceneBackend: BackendModule = {
  type: 'backend',
  callbackApi: true,
  init() {},
  read(language, namespace, callback) {
    const load = sceneFiles[`./locales/${language}/${namespace}.json`];
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
    .use(sceneBackend)
    .use(LanguageDetector)
    .use(initReactI18next)
    .init({
      resources: { en: { common: enCommon }, th: { common: thCommon } },
      partialBundledLanguages: true,
      supportedLngs: [...LANGUAGES],
      nonExplicitSupportedLngs: true,
      load: 'languageOnly',
      fallbackLng: 'en',
      ns: ['common'],
      defaultNS: 'common',
      interpolation: { escapeValue: false },
      detection: {
        order: ['localStorage', 'navigator'],
        lookupLocalStorage: LANGUAGE_STORAGE_KEY,
        caches: ['localStorage'],
      },
    });
  return i18n;
}

export { i18n };
