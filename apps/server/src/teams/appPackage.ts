import { strToU8, zipSync } from 'fflate';
import { PNG } from 'pngjs';
import { type Config, ConfigError } from '../config/index.ts';
import { serverVersion } from '../version.ts';
import { TEAMS_TAB_ENTITY_ID } from './deepLinks.ts';

/**
 * The Teams app package (`npm run teams:package`): manifest.json, th.json and two icons in a zip to
 * upload in the Teams admin centre or sideload. The manifest follows the newest stable schema that
 * @microsoft/app-manifest ships (appPackage.test.ts validates it against that schema offline).
 */
export const MANIFEST_VERSION = '1.30';

const SCHEMA_BASE = `https://developer.microsoft.com/en-us/json-schemas/teams/v${MANIFEST_VERSION}`;

/** The web theme's colours (apps/web/src/theme BRAND; the test checks they are the same). */
export const THEME_COLOURS = { primary: '#472F92', secondary: '#8F0562' } as const;

const GUID = /^[0-9a-f]{8}-([0-9a-f]{4}-){3}[0-9a-f]{12}$/i;

/** The configuration the package is made from, checked; every problem names its variable. */
interface PackageSettings {
  appId: string;
  botId: string;
  publicUrl: string;
  host: string;
  clientId: string;
  resource: string;
  developerName: string;
}

type PackageConfig = Pick<
  Config,
  'teamsAppId' | 'teamsBot' | 'publicUrl' | 'directory' | 'teamsDeveloperName'
>;

function packageSettings(config: PackageConfig): PackageSettings {
  const problems: string[] = [];
  if (!config.teamsAppId) {
    problems.push(
      '  TEAMS_APP_ID: must be set: the app id in the manifest, a GUID you make once (e.g. uuidgen)',
    );
  }
  if (!config.teamsBot) {
    problems.push("  TEAMS_BOT_APP_ID: must be set: the Azure Bot's Microsoft App ID (a GUID)");
  } else if (!GUID.test(config.teamsBot.appId)) {
    problems.push("  TEAMS_BOT_APP_ID: must be the Azure Bot's Microsoft App ID, a GUID");
  }
  const publicUrl = new URL(config.publicUrl);
  if (publicUrl.protocol !== 'https:') {
    problems.push(
      `  PUBLIC_URL: must be BTalk's https:// address (Teams loads tabs over https only; got ${config.publicUrl})`,
    );
  }
  const { directory } = config;
  if (directory.kind !== 'entra') {
    problems.push(
      '  ENTRA_TENANT_ID: must be set: Teams single sign-on needs BTalk signed in with Microsoft Entra ID',
    );
  }
  if (!GUID.test(directory.clientId)) {
    problems.push(
      "  DIRECTORY_CLIENT_ID: must be the Entra app registration's Application (client) ID, a GUID " +
        '(the manifest webApplicationInfo.id)',
    );
  }
  if (!directory.apiAudience.startsWith(`api://${publicUrl.host}/`)) {
    problems.push(
      `  DIRECTORY_API_AUDIENCE: must be the Application ID URI api://${publicUrl.host}/<client id>: Teams ` +
        `single sign-on needs PUBLIC_URL's host in it (got ${directory.apiAudience})`,
    );
  }
  if (problems.length > 0) {
    throw new ConfigError(`Cannot build the Teams app package:\n${problems.join('\n')}`);
  }
  return {
    appId: config.teamsAppId ?? '',
    botId: config.teamsBot?.appId ?? '',
    publicUrl: config.publicUrl,
    host: publicUrl.host,
    clientId: directory.clientId,
    resource: directory.apiAudience,
    developerName: config.teamsDeveloperName,
  };
}

/** The English texts of the manifest; th.json holds the same in Thai. */
const ENGLISH = {
  nameShort: 'BTalk',
  nameFull: 'BTalk: workplace communication',
  descriptionShort: "Your organisation's topics, posts and call-tree alerts in Teams.",
  descriptionFull:
    "BTalk is your organisation's own workplace chat. In Teams, the BTalk bot sends you notifications " +
    'of the posts you follow and urgent call-tree alerts that you can answer (Safe, Need help) right ' +
    'from the card; the BTalk tab opens topics, posts and the call tree without leaving Teams.',
  tabName: 'BTalk',
  helpTitle: 'help',
  helpDescription: 'What the BTalk bot does',
};

const THAI = {
  nameShort: 'BTalk',
  nameFull: 'BTalk: การสื่อสารในองค์กร',
  descriptionShort: 'หัวข้อ โพสต์ และการแจ้งเตือนผังการโทรขององค์กรคุณใน Teams',
  descriptionFull:
    'BTalk คือแชตสำหรับการทำงานขององค์กรคุณเอง ใน Teams บอต BTalk จะส่งการแจ้งเตือนโพสต์ที่คุณติดตาม ' +
    'และการแจ้งเตือนผังการโทรแบบเร่งด่วนที่คุณตอบได้ทันทีจากการ์ด (ปลอดภัย, ต้องการความช่วยเหลือ) ' +
    'แท็บ BTalk เปิดหัวข้อ โพสต์ และผังการโทรได้โดยไม่ต้องออกจาก Teams',
  tabName: 'BTalk',
  helpTitle: 'help',
  helpDescription: 'บอต BTalk ทำอะไรได้บ้าง',
};

/** The manifest of BTalk's Teams app (schema MANIFEST_VERSION); throws ConfigError naming what is missing. */
export function buildManifest(config: PackageConfig): Record<string, unknown> {
  const s = packageSettings(config);
  return {
    $schema: `${SCHEMA_BASE}/MicrosoftTeams.schema.json`,
    manifestVersion: MANIFEST_VERSION,
    // BTalk's version (the root package.json has none): raise it for every changed upload.
    version: serverVersion,
    id: s.appId,
    localizationInfo: {
      defaultLanguageTag: 'en',
      additionalLanguages: [{ languageTag: 'th', file: 'th.json' }],
    },
    developer: {
      name: s.developerName,
      websiteUrl: s.publicUrl,
      // BTalk's one page of terms (SPEC.md /terms) also says how people's data is used.
      privacyUrl: `${s.publicUrl}/terms`,
      termsOfUseUrl: `${s.publicUrl}/terms`,
    },
    name: { short: ENGLISH.nameShort, full: ENGLISH.nameFull },
    description: { short: ENGLISH.descriptionShort, full: ENGLISH.descriptionFull },
    icons: { color: 'color.png', outline: 'outline.png' },
    accentColor: THEME_COLOURS.primary,
    bots: [
      {
        botId: s.botId,
        scopes: ['personal'],
        supportsFiles: false,
        isNotificationOnly: false,
        commandLists: [
          {
            scopes: ['personal'],
            commands: [{ title: ENGLISH.helpTitle, description: ENGLISH.helpDescription }],
          },
        ],
      },
    ],
    staticTabs: [
      {
        entityId: TEAMS_TAB_ENTITY_ID,
        name: ENGLISH.tabName,
        contentUrl: `${s.publicUrl}/teamtab`,
        websiteUrl: s.publicUrl,
        scopes: ['personal'],
      },
    ],
    permissions: ['identity'],
    devicePermissions: [],
    validDomains: [s.host],
    webApplicationInfo: { id: s.clientId, resource: s.resource },
    defaultInstallScope: 'personal',
  };
}

/** th.json: the Thai strings of the manifest (Teams' localization file format). */
export function buildThaiLocalization(): Record<string, unknown> {
  return {
    $schema: `${SCHEMA_BASE}/MicrosoftTeams.Localization.schema.json`,
    'name.short': THAI.nameShort,
    'name.full': THAI.nameFull,
    'description.short': THAI.descriptionShort,
    'description.full': THAI.descriptionFull,
    'staticTabs[0].name': THAI.tabName,
    'bots[0].commandLists[0].commands[0].title': THAI.helpTitle,
    'bots[0].commandLists[0].commands[0].description': THAI.helpDescription,
  };
}

/** The zip to upload: manifest.json, th.json, color.png (192x192) and outline.png (32x32). */
export function buildPackage(config: PackageConfig): Uint8Array {
  const manifest = buildManifest(config);
  const json = (value: unknown) => strToU8(`${JSON.stringify(value, null, 2)}\n`);
  return zipSync({
    'manifest.json': json(manifest),
    'th.json': json(buildThaiLocalization()),
    'color.png': colorIcon(),
    'outline.png': outlineIcon(),
  });
}

// The mark: a speech bubble with a "B" in it, drawn in a 96x96 box of its own units.

type Shape = (x: number, y: number) => boolean;

function roundedRect(left: number, top: number, right: number, bottom: number, radius: number): Shape {
  return (x, y) => {
    if (x < left || x > right || y < top || y > bottom) return false;
    const dx = Math.max(left + radius - x, 0, x - (right - radius));
    const dy = Math.max(top + radius - y, 0, y - (bottom - radius));
    return dx * dx + dy * dy <= radius * radius;
  };
}

function triangle(a: [number, number], b: [number, number], c: [number, number]): Shape {
  const side = (p: [number, number], q: [number, number], x: number, y: number) =>
    (q[0] - p[0]) * (y - p[1]) - (q[1] - p[1]) * (x - p[0]);
  return (x, y) => {
    const s1 = side(a, b, x, y);
    const s2 = side(b, c, x, y);
    const s3 = side(c, a, x, y);
    return (s1 >= 0 && s2 >= 0 && s3 >= 0) || (s1 <= 0 && s2 <= 0 && s3 <= 0);
  };
}

const bubbleBody = roundedRect(0, 4, 96, 80, 18);
const bubbleTail = triangle([14, 70], [40, 70], [8, 94]);
const bubble: Shape = (x, y) => bubbleBody(x, y) || bubbleTail(x, y);

const stem = roundedRect(28, 18, 38, 66, 0);
const topBowl = roundedRect(28, 18, 60, 44, 13);
const topCounter = roundedRect(38, 27, 50, 35, 4);
const bottomBowl = roundedRect(28, 40, 66, 66, 13);
const bottomCounter = roundedRect(38, 49, 56, 57, 4);
const letterB: Shape = (x, y) =>
  stem(x, y) || (topBowl(x, y) && !topCounter(x, y)) || (bottomBowl(x, y) && !bottomCounter(x, y));

const notificationDot: Shape = (x, y) => (x - 88) ** 2 + (y - 10) ** 2 <= 12 ** 2;

/** A layer: the part of each pixel (0..1) a shape covers, 4x4 samples per pixel for smooth edges. */
function coverage(size: number, offset: number, scale: number, shape: Shape): Float64Array {
  const out = new Float64Array(size * size);
  const n = 4;
  for (let py = 0; py < size; py++) {
    for (let px = 0; px < size; px++) {
      let hits = 0;
      for (let sy = 0; sy < n; sy++) {
        for (let sx = 0; sx < n; sx++) {
          const x = (px + (sx + 0.5) / n - offset) / scale;
          const y = (py + (sy + 0.5) / n - offset) / scale;
          if (shape(x, y)) hits++;
        }
      }
      out[py * size + px] = hits / (n * n);
    }
  }
  return out;
}

function rgb(hex: string): [number, number, number] {
  return [1, 3, 5].map((i) => Number.parseInt(hex.slice(i, i + 2), 16)) as [number, number, number];
}

/** 192x192, opaque: the primary colour with the white bubble, a primary "B" and a secondary dot. */
export function colorIcon(): Uint8Array {
  const size = 192;
  const png = new PNG({ width: size, height: size });
  // Teams shows the colour icon's symbol in the middle 96x96, the rest is background.
  const layers: [Float64Array, [number, number, number]][] = [
    [coverage(size, 48, 1, bubble), [255, 255, 255]],
    [coverage(size, 48, 1, letterB), rgb(THEME_COLOURS.primary)],
    [coverage(size, 48, 1, notificationDot), rgb(THEME_COLOURS.secondary)],
  ];
  const background = rgb(THEME_COLOURS.primary);
  for (let i = 0; i < size * size; i++) {
    let colour = background;
    for (const [layer, ink] of layers) {
      const a = layer[i] ?? 0;
      colour = colour.map((c, k) => c * (1 - a) + (ink[k] ?? 0) * a) as [number, number, number];
    }
    png.data[i * 4] = Math.round(colour[0]);
    png.data[i * 4 + 1] = Math.round(colour[1]);
    png.data[i * 4 + 2] = Math.round(colour[2]);
    png.data[i * 4 + 3] = 255;
  }
  return PNG.sync.write(png);
}

/** 32x32, white on transparent as Teams requires: the bubble with the "B" cut out. */
export function outlineIcon(): Uint8Array {
  const size = 32;
  const png = new PNG({ width: size, height: size });
  // A pixel of margin all round, so the bubble's edge is not cut by Teams' rendering.
  const ink = coverage(size, 1, (size - 2) / 96, (x, y) => bubble(x, y) && !letterB(x, y));
  for (let i = 0; i < size * size; i++) {
    png.data[i * 4] = 255;
    png.data[i * 4 + 1] = 255;
    png.data[i * 4 + 2] = 255;
    png.data[i * 4 + 3] = Math.round((ink[i] ?? 0) * 255);
  }
  return PNG.sync.write(png);
}
