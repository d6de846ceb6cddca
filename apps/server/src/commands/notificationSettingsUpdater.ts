import type { NotificationSettings, UpdateNotificationSettingsRequest } from '@btalk/contracts';
import type { Kysely } from 'kysely';
import type { Database } from '../db/index.ts';
import type { UserRow } from '../db/schema.ts';
import { now } from '../ids.ts';
import { loadSettings, saveSettings } from '../notifications/settings.ts';

/**
 * Changes the parts of a person's notification settings that the request names (channels and kinds
 * switch by switch, quiet hours whole, whether the Teams dialog was closed) and stores the result. Answers the settings now in force.
 */
export async function notificationSettingsUpdater(
  trx: Kysely<Database>,
  actor: UserRow,
  change: UpdateNotificationSettingsRequest,
): Promise<NotificationSettings> {
  const current = await loadSettings(trx, actor.id);
  const next: NotificationSettings = {
    channels: { ...current.channels, ...change.channels },
    kinds: { ...current.kinds, ...change.kinds },
    quietHours: change.quietHours ?? current.quietHours,
    teamsPromptDismissed: change.teamsPromptDismissed ?? current.teamsPromptDismissed,
  };
  await saveSettings(trx, actor.id, next, now());
  return next;
}
