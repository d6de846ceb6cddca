import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { AppManifestUtils } from '@microsoft/app-manifest';
// @microsoft/app-manifest's own validator libraries (its dependencies): JSON Schema draft-04 and formats.
import ajvDraft04 from 'ajv-draft-04';
import ajvFormats from 'ajv-formats';
import { unzipSync } from 'fflate';
import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../config/index.ts';
import { testConfig } from '../test/server.ts';
import { serverVersion } from '../version.ts';
import { buildManifest, buildPackage, MANIFEST_VERSION, THEME_COLOURS } from './appPackage.ts';
import { TEAMS_TAB_ENTITY_ID } from './deepLinks.ts';

// The official schemas, offline: @microsoft/app-manifest ships every Teams manifest version.
const schemas = path.join(
  path.dirname(createRequire(import.meta.url).resolve('@microsoft/app-manifest/package.json')),
  'build/json-schemas/teams',
);
const readSchema = (version: string, name: string) =>
  JSON.parse(readFileSync(path.join(schemas, `v${version}`, name), 'utf8'));

// The web theme's BRAND colours, read from its source (importing it would start MUI in Node).
const themeSource = readFileSync(new URL('../../../web/src/theme/index.ts', import.meta.url), 'utf8');
const brandMatch =
  /export const BRAND = \{ primary: '(#[0-9A-Fa-f]{6})', secondary: '(#[0-9A-Fa-f]{6})' \}/.exec(themeSource);
const BRAND = { primary: brandMatch?.[1] ?? 'missing', secondary: brandMatch?.[2] ?? 'missing' };

const TENANT = {
  PUBLIC_URL: 'https://btalk.example.org',
  TEAMS_APP_ID: '6a1b4c0e-2f3d-4e5f-8a9b-0c1d2e3f4a5b',
  TEAMS_BOT_APP_ID: '0d9c8b7a-6e5f-4a3b-9c2d-1e0f9a8b7c6d',
  TEAMS_BOT_APP_PASSWORD: 'bot-secret',
  ENTRA_TENANT_ID: '11111111-2222-3333-4444-555555555555',
  DIRECTORY_CLIENT_ID: 'aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee',
  DIRECTORY_CLIENT_SECRET: 'directory-secret',
  TEAMS_DEVELOPER_NAME: 'Example Hospital',
};

function unpack(env: Record<string, string> = TENANT) {
  const files = unzipSync(buildPackage(testConfig(env)));
  const json = (name: string) => JSON.parse(new TextDecoder().decode(files[name]));
  return { files, manifest: json('manifest.json'), thai: json('th.json') };
}

/** The errors of the official Teams manifest schema for `manifest` (empty: valid). */
function manifestErrors(manifest: unknown): Promise<string[]> {
  return AppManifestUtils.validateAgainstSchema(
    manifest as Parameters<typeof AppManifestUtils.validateAgainstSchema>[0],
    readSchema(MANIFEST_VERSION, 'MicrosoftTeams.schema.json'),
  );
}

describe('the Teams app package', () => {
  it('uses the newest stable manifest schema that @microsoft/app-manifest ships', () => {
    const stable = readdirSync(schemas)
      .map((name) => /^v1\.(\d+)$/.exec(name)?.[1])
      .filter((minor): minor is string => minor !== undefined)
      .map(Number);
    expect(MANIFEST_VERSION).toBe(`1.${Math.max(...stable)}`);
  });

  it('holds a manifest that the official schema accepts, with the bot, the tab and single sign-on', async () => {
    const { files, manifest } = unpack();
    expect(Object.keys(files).sort()).toEqual(['color.png', 'manifest.json', 'outline.png', 'th.json']);
    expect(await manifestErrors(manifest)).toEqual([]);
    expect(manifest).toMatchObject({
      manifestVersion: MANIFEST_VERSION,
      version: serverVersion,
      id: TENANT.TEAMS_APP_ID,
      developer: {
        name: 'Example Hospital',
        websiteUrl: 'https://btalk.example.org',
        privacyUrl: 'https://btalk.example.org/terms',
        termsOfUseUrl: 'https://btalk.example.org/terms',
      },
      localizationInfo: {
        defaultLanguageTag: 'en',
        additionalLanguages: [{ languageTag: 'th', file: 'th.json' }],
      },
      icons: { color: 'color.png', outline: 'outline.png' },
      accentColor: BRAND.primary,
      bots: [
        {
          botId: TENANT.TEAMS_BOT_APP_ID,
          scopes: ['personal'],
          supportsFiles: false,
          isNotificationOnly: false,
        },
      ],
      staticTabs: [
        {
          entityId: TEAMS_TAB_ENTITY_ID,
          contentUrl: 'https://btalk.example.org/teamtab',
          websiteUrl: 'https://btalk.example.org',
          scopes: ['personal'],
        },
      ],
      webApplicationInfo: {
        id: TENANT.DIRECTORY_CLIENT_ID,
        resource: `api://btalk.example.org/${TENANT.DIRECTORY_CLIENT_ID}`,
      },
      validDomains: ['btalk.example.org'],
      permissions: ['identity'],
      devicePermissions: [],
    });
  });

  it('is refused by the schema when a field breaks it (the validation is real)', async () => {
    const { manifest } = unpack();
    expect(await manifestErrors({ ...manifest, accentColor: 'purple' })).toEqual([
      expect.stringContaining('/accentColor must match pattern'),
    ]);
    expect(
      await manifestErrors({ ...manifest, bots: [{ botId: 'not-a-guid', scopes: ['personal'] }] }),
    ).toEqual([expect.stringContaining('/bots/0/botId must match pattern')]);
  });

  it('carries the Thai names and descriptions in a th.json the Localization schema accepts', () => {
    const { thai } = unpack();
    // JSON Schema patterns are ECMA-262 without the u flag; one of the official patterns needs that.
    const ajv = new ajvDraft04.default({ allErrors: true, strictTypes: false, unicodeRegExp: false });
    ajvFormats.default(ajv, ['uri', 'email', 'regex']);
    const validate = ajv.compile(readSchema(MANIFEST_VERSION, 'MicrosoftTeams.Localization.schema.json'));
    expect(validate(thai), JSON.stringify(validate.errors)).toBe(true);
    expect(thai['description.short']).toMatch(/[\u0E00-\u0E7F]/);
    expect(thai['description.full']).toMatch(/[\u0E00-\u0E7F]/);
    // Refused when it breaks the schema: a key Teams does not know.
    expect(validate({ ...thai, 'name.nickname': 'x' })).toBe(false);
  });

  it('takes its accent colour from the web theme', () => {
    expect(THEME_COLOURS).toEqual(BRAND);
  });

  it('has a 192x192 colour icon in the theme colours and a 32x32 white-on-transparent outline icon', () => {
    const { files } = unpack();
    const color = PNG.sync.read(Buffer.from(files['color.png'] ?? []));
    expect([color.width, color.height]).toEqual([192, 192]);
    const hex = (data: Buffer, i: number) =>
      `#${[0, 1, 2].map((k) => (data[i + k] ?? 0).toString(16).padStart(2, '0')).join('')}`.toUpperCase();
    expect(hex(color.data, 0)).toBe(BRAND.primary); // the corner: background
    expect(new Set(Array.from({ length: 192 * 192 }, (_, i) => hex(color.data, i * 4)))).toContain(
      BRAND.secondary,
    );

    const outline = PNG.sync.read(Buffer.from(files['outline.png'] ?? []));
    expect([outline.width, outline.height]).toEqual([32, 32]);
    let inked = 0;
    let transparent = 0;
    for (let i = 0; i < 32 * 32 * 4; i += 4) {
      const alpha = outline.data[i + 3] ?? 0;
      if (alpha > 0)
        expect([outline.data[i], outline.data[i + 1], outline.data[i + 2]]).toEqual([255, 255, 255]);
      if (alpha === 255) inked++;
      if (alpha === 0) transparent++;
    }
    expect(inked).toBeGreaterThan(100);
    expect(transparent).toBeGreaterThan(100);
  });

  it('is not built without the configuration it needs, and the message names each variable', () => {
    const attempt = () => buildManifest(testConfig({}));
    expect(attempt).toThrow(ConfigError);
    const message = (() => {
      try {
        attempt();
      } catch (error) {
        return (error as Error).message;
      }
      return '';
    })();
    for (const variable of [
      'TEAMS_APP_ID',
      'TEAMS_BOT_APP_ID',
      'PUBLIC_URL',
      'ENTRA_TENANT_ID',
      'DIRECTORY_CLIENT_ID',
    ]) {
      expect(message).toContain(`  ${variable}: `);
    }
    // One missing variable is named alone.
    const { TEAMS_APP_ID: _, ...withoutAppId } = TENANT;
    expect(() => buildManifest(testConfig(withoutAppId))).toThrow(
      /^Cannot build the Teams app package:\n {2}TEAMS_APP_ID: [^\n]*$/,
    );
    expect(() => buildManifest(testConfig({ ...TENANT, PUBLIC_URL: 'http://btalk.example.org' }))).toThrow(
      /PUBLIC_URL: must be BTalk's https:\/\/ address/,
    );
    expect(() => buildManifest(testConfig({ ...TENANT, TEAMS_BOT_APP_ID: 'btalk-bot' }))).toThrow(
      /TEAMS_BOT_APP_ID: must be the Azure Bot's Microsoft App ID, a GUID/,
    );
    expect(() =>
      buildManifest(
        testConfig({
          ...TENANT,
          DIRECTORY_API_AUDIENCE: `api://elsewhere.example.org/${TENANT.DIRECTORY_CLIENT_ID}`,
        }),
      ),
    ).toThrow(
      /DIRECTORY_API_AUDIENCE: must be the Application ID URI api:\/\/btalk\.example\.org\/<client id>/,
    );
  });
});
