import type { Notification } from '@btalk/contracts';
import type { NotificationRow } from '../db/schema.ts';

/** A notification as its owner sees it. */
export function presentNotification(row: NotificationRow): Notification {
  let data: Record<string, unknown> = {};
  try {
    const parsed: unknown = JSON.parse(row.data);
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed))
      data = parsed as Record<string, unknown>;
  } catch {
    // A row written by an older server with unreadable data still shows by its title and body.
  }
  return {
    id: row.id,
    kind: row.kind,
    urgent: row.urgent === 1,
    title: row.title,
    body: row.body,
    data,
    createdAt: row.created_at,
    readAt: row.read_at,
  };
}
