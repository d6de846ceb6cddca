import { afterEach, describe, expect, it, vi } from 'vitest';
import { currentLanguage, i18n, LANGUAGE_STORAGE_KEY, languageDetector, startI18n } from './index.ts';

afterEach(() => {
  localStorage.clear();
  vi.unstubAllGlobals();
});

function browserLanguages(languages: string[]) {
  vi.stubGlobal('navigator', { ...navigator, languages });
}

describe('the language detector', () => {
  it('offers the browser’s languages in its order until the person picks one on this device', () => {
    browserLanguages(['de-DE', 'th-TH', 'en']);
    expect(languageDetector.detect()).toEqual(['de-DE', 'th-TH', 'en']);
    localStorage.setItem(LANGUAGE_STORAGE_KEY, 'en');
    expect(languageDetector.detect()).toEqual(['en']);
  });

  it('keeps a language where detect finds it', () => {
    languageDetector.cacheUserLanguage?.('th');
    expect(localStorage.getItem(LANGUAGE_STORAGE_KEY)).toBe('th');
    expect(languageDetector.detect()).toEqual(['th']);
  });
});

describe('startI18n', () => {
  it('starts in the browser’s first language BTalk speaks, with only its common texts, and keeps a change', async () => {
    browserLanguages(['fr-FR', 'en-US', 'th-TH']);
    await startI18n();
    expect(currentLanguage()).toBe('en');
    expect(document.documentElement.lang).toBe('en');
    expect(i18n.t('userMenu.signOut')).toBe('Sign out');
    // Thai's common texts load when Thai is chosen, not at start-up (English, the fallback, always does).
    expect(i18n.hasResourceBundle('th', 'common')).toBe(false);

    await i18n.changeLanguage('th-TH');
    expect(currentLanguage()).toBe('th');
    expect(i18n.t('userMenu.signOut')).toBe('ออกจากระบบ');
    expect(localStorage.getItem(LANGUAGE_STORAGE_KEY)).toBe('th-TH');
    expect(document.documentElement.lang).toBe('th');
  });
});
