import { describe, expect, it } from 'vitest';
import { LANGUAGES } from './index.ts';

const files = import.meta.glob<Record<string, unknown>>('./locales/*/*.json', {
  eager: true,
  import: 'default',
});

/** Every text's key path, with the plural suffixes folded (Thai has one plural form, English two). */
function keysOf(texts: Record<string, unknown>, prefix = ''): string[] {
  return Object.entries(texts).flatMap(([key, value]) =>
    value && typeof value === 'object'
      ? keysOf(value as Record<string, unknown>, `${prefix}${key}.`)
      : [`${prefix}${key.replace(/_(zero|one|two|few|many|other)$/, '')}`],
  );
}

function valuesOf(texts: Record<string, unknown>): unknown[] {
  return Object.values(texts).flatMap((value) =>
    value && typeof value === 'object' ? valuesOf(value as Record<string, unknown>) : [value],
  );
}

const namespaces = (language: string) =>
  Object.keys(files)
    .filter((path) => path.startsWith(`./locales/${language}/`))
    .map((path) => path.slice(`./locales/${language}/`.length, -'.json'.length))
    .sort();

describe('the texts in English and Thai', () => {
  it('have the same namespaces', () => {
    expect(namespaces('th')).toEqual(namespaces('en'));
  });

  for (const namespace of namespaces('en')) {
    it(`${namespace}: every English text has its Thai one, and none is empty`, () => {
      const [en, th] = LANGUAGES.map((language) => files[`./locales/${language}/${namespace}.json`]!);
      expect([...new Set(keysOf(th!))].sort()).toEqual([...new Set(keysOf(en!))].sort());
      for (const texts of [en!, th!]) {
        for (const value of valuesOf(texts))
          expect(typeof value === 'string' && value.trim() !== '').toBe(true);
      }
    });
  }
});
