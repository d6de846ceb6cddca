import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';
import { afterAll, describe, expect, it } from 'vitest';

// The web app takes the contracts' constants from `@btalk/contracts/constants`, which imports no
// zod; a run-time import of `@btalk/contracts` itself (its schemas) would bring the whole of zod
// into the app. These tests build the app as production does and look for zod in what it emits.

const webRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const work = mkdtempSync(path.join(tmpdir(), 'btalk-web-bundle-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** Names zod's code always carries, even minified: its internals live under `_zod`. */
const ZOD = /\b_zod\b|ZodError/;

/** The JavaScript files of a build folder (`assets/` and the rest), by name. */
function scripts(outDir: string): Map<string, string> {
  const files = new Map<string, string>();
  for (const entry of readdirSync(outDir, { recursive: true, encoding: 'utf8' })) {
    if (entry.endsWith('.js')) files.set(entry, readFileSync(path.join(outDir, entry), 'utf8'));
  }
  return files;
}

describe('the web app’s bundle', () => {
  const contracts = path.resolve(webRoot, '../../packages/contracts/src');
  /** Bundles one module with everything it imports, as a library, and answers its scripts. */
  async function bundle(entry: string, name: string): Promise<string[]> {
    const outDir = path.join(work, name);
    await build({
      configFile: false,
      root: webRoot,
      logLevel: 'silent',
      build: { outDir, emptyOutDir: true, lib: { entry, formats: ['es'], fileName: name } },
    });
    return [...scripts(outDir).values()];
  }

  it('recognises zod where the contracts’ schemas go, and finds none in their constants', async () => {
    // The check below can fail: the schemas' module carries zod's marks.
    expect((await bundle(path.join(contracts, 'index.ts'), 'schemas')).some((code) => ZOD.test(code))).toBe(
      true,
    );
    expect(
      (await bundle(path.join(contracts, 'constants.ts'), 'constants')).some((code) => ZOD.test(code)),
    ).toBe(false);
  });

  it('has no zod in any script, the first screen’s or a lazy screen’s', async () => {
    const outDir = path.join(work, 'app');
    await build({
      configFile: path.join(webRoot, 'vite.config.ts'),
      root: webRoot,
      logLevel: 'silent',
      build: { outDir, emptyOutDir: true, sourcemap: false },
    });
    const files = scripts(outDir);
    const main = [...files.keys()].filter((name) => /^assets[/\\]index-.*\.js$/.test(name));
    expect(main).toHaveLength(1);
    expect([...files].filter(([, code]) => ZOD.test(code)).map(([name]) => name)).toEqual([]);
    // A whole production build (with the service worker): about 20 s on CI's two cores while the
    // browser tests run beside it. A hang guard, not a speed check.
  }, 180_000);
});
