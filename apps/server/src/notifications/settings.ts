import { NotificationKind, NotificationSettings, type QuietHours } from '@btalk/contracts';
import type { Kysely } from 'kysely';
import type { Database } from '../db/index.ts';
import { wallClock } from '../wallClock.ts';

/**
 * A person's notification settings: what is stored (JSON checked by contracts), the defaults for
 * people who never changed anything, and quiet hours.
 */

/** Settings of a person who never changed them: push needs the person to switch it on in a browser. */
export const DEFAULT_SETTINGS: NotificationSettings = {
  channels: { push: false, email: true, teams: true },
  kinds: { mention: true, comment: true, post: true, topicAdded: true },
  quietHours: { enabled: false, start: '22:00', end: '07:00', timeZone: 'Asia/Bangkok' },
  teamsPromptDismissed: false,
};

/** Reads stored settings; anything unreadable falls back to the defaults, part by part. */
export function parseSettings(text: string | null | undefined): NotificationSettings {
  if (!text) return DEFAULT_SETTINGS;
  try {
    const raw = JSON.parse(text) as Partial<NotificationSettings>;
    const merged = {
      channels: { ...DEFAULT_SETTINGS.channels, ...raw.channels },
      kinds: { ...DEFAULT_SETTINGS.kinds, ...raw.kinds },
      quietHours: { ...DEFAULT_SETTINGS.quietHours, ...raw.quietHours },
      teamsPromptDismissed: raw.teamsPromptDismissed ?? DEFAULT_SETTINGS.teamsPromptDismissed,
    };
    const checked = NotificationSettings.safeParse(merged);
    return checked.success ? checked.data : DEFAULT_SETTINGS;
  } catch {
    return DEFAULT_SETTINGS;
  }
}

/** One person's settings. */
export async function loadSettings(db: Kysely<Database>, userId: string): Promise<NotificationSettings> {
  const row = await db
    .selectFrom('notification_settings')
    .select('settings')
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return parseSettings(row?.settings);
}

/** Many people's settings (defaults for those without a row). */
export async function loadSettingsOf(
  db: Kysely<Database>,
  userIds: string[],
): Promise<Map<string, NotificationSettings>> {
  const found = new Map<string, NotificationSettings>();
  const ids = [...new Set(userIds)];
  for (let i = 0; i < ids.length; i += 5000) {
    const rows = await db
      .selectFrom('notification_settings')
      .select(['user_id', 'settings'])
      .where('user_id', 'in', ids.slice(i, i + 5000))
      .execute();
    for (const r of rows) found.set(r.user_id, parseSettings(r.settings));
  }
  for (const id of ids) if (!found.has(id)) found.set(id, DEFAULT_SETTINGS);
  return found;
}

/** Stores a person's whole settings. */
export async function saveSettings(
  db: Kysely<Database>,
  userId: string,
  settings: NotificationSettings,
  at: string,
): Promise<void> {
  const text = JSON.stringify(settings);
  await db
    .insertInto('notification_settings')
    .values({ user_id: userId, settings: text, updated_at: at })
    .onConflict((oc) => oc.column('user_id').doUpdateSet({ settings: text, updated_at: at }))
    .execute();
}

/** Minutes since midnight of `at` in `timeZone`. */
function minutesIn(timeZone: string, at: Date): number {
  const { hour, minute } = wallClock(at, timeZone);
  return Number(hour) * 60 + Number(minute);
}

const toMinutes = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

/** Whether `at` falls in the quiet hours (start included, end excluded; overnight spans allowed). */
export function inQuietHours(quiet: QuietHours, at: Date): boolean {
  if (!quiet.enabled) return false;
  const start = toMinutes(quiet.start);
  const end = toMinutes(quiet.end);
  if (start === end) return false;
  const m = minutesIn(quiet.timeZone, at);
  return start < end ? m >= start && m < end : m >= start || m < end;
}

/** The settings switch of a kind, or null for kinds that cannot be switched off (the call tree). */
export function kindSetting(kind: string): keyof NotificationSettings['kinds'] | null {
  switch (kind) {
    case NotificationKind.mention:
    case NotificationKind.direct:
      // A direct message reaches its people as a mention does: one switch for both.
      return 'mention';
    case NotificationKind.comment:
      return 'comment';
    case NotificationKind.post:
      return 'post';
    case NotificationKind.topicAdded:
      return 'topicAdded';
    default:
      return null;
  }
}
