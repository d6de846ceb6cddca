import { NotificationKind } from '@btalk/contracts';
import type { Kysely } from 'kysely';
import type { Database } from '../db/index.ts';
import { notify } from '../notifications/notifier.ts';
import { recipientsFor } from '../notifications/rules.ts';

/** The call tree's notification kinds. */
type CallTreeKind =
  | typeof NotificationKind.callStarted
  | typeof NotificationKind.callEscalation
  | typeof NotificationKind.callReminder;

/** A call-tree notification to write. */
export interface CallTreeNotice {
  userId: string;
  kind: CallTreeKind;
  title: string;
  body: string;
  /** Ids the client needs to open the thing (`eventId`, ...). */
  data: Record<string, unknown>;
}

const ruleKind = {
  [NotificationKind.callStarted]: 'started',
  [NotificationKind.callEscalation]: 'escalation',
  [NotificationKind.callReminder]: 'reminder',
} as const;

/**
 * Writes call-tree notifications (event started, escalation, reminder) through the notification
 * engine, in the caller's transaction. The rules make them urgent: they reach every channel the
 * person has on, whatever their mutes and quiet hours.
 */
export async function notifyCallTree(
  trx: Kysely<Database>,
  notices: CallTreeNotice[],
  at: string,
  actorId: string | null,
): Promise<void> {
  if (notices.length === 0) return;
  const urgent = new Set(
    recipientsFor(
      { type: 'calltree', kind: ruleKind[notices[0]!.kind], recipientIds: notices.map((n) => n.userId) },
      new Map(),
    )
      .filter((r) => r.urgent)
      .map((r) => r.userId),
  );
  await notify(
    trx,
    notices.map((n) => ({ ...n, urgent: urgent.has(n.userId) })),
    at,
    actorId,
  );
}
