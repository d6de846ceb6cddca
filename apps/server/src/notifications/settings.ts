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

/**
 * The first moment at or after `at` that is out of the quiet hours (`at` itself when it is out of them
 * already): the minute their end falls on, on the wall clock of their time zone. A day whose clock
 * jumps (daylight saving) is walked minute by minute to the first minute out of them.
 */
export function quietHoursEnd(quiet: QuietHours, at: Date): Date {
  if (!inQuietHours(quiet, at)) return at;
  const m = minutesIn(quiet.timeZone, at);
  const wait = (toMinutes(quiet.end) - m + 24 * 60) % (24 * 60);
  // Time zones' offsets are whole minutes: a minute starts at the same moment everywhere.
  const startOfMinute = at.getTime() - (at.getTime() % 60_000);
  let end = new Date(startOfMinute + wait * 60_000);
  // Where the clock jumped, the reckoning is off by the jump: forward while still quiet, back while
  // the minute before is already out of them.
  for (let i = 0; i < 24 * 60 && inQuietHours(quiet, end); i++) end = new Date(end.getTime() + 60_000);
  for (let i = 0; i < 24 * 60; i++) {
    const before = new Date(end.getTime() - 60_000);
    if (before.getTime() <= at.getTime() || inQuietHours(quiet, before)) break;
    end = before;
  }
  return end;
}

/**
 * The announcement kinds (issue 17): an important post asks for an acknowledgement, so a non-urgent
 * one that falls in the person's quiet hours waits for their end rather than being dropped; an urgent
 * one goes through them, as the call tree does. No kind setting switches them off.
 */
export const ANNOUNCEMENT_KINDS: ReadonlySet<string> = new Set([
  NotificationKind.announcement,
  NotificationKind.announcementReminder,
]);

/** Whether a notification kind is one of the announcement kinds. */
export function isAnnouncementKind(kind: string): boolean {
  return ANNOUNCEMENT_KINDS.has(kind);
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
    // Announcements and their reminders, like the call tree, reach every channel whatever the kinds.
    default:
      return null;
  }
}
