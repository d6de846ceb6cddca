import type { TFunction } from 'i18next';
import { fullTime } from '../time.ts';

/** "Due <date, time>" for an important post's due time, or "Was due ..." once it has passed. */
export function dueText(dueAt: string, t: TFunction, now = Date.now()): string {
  return t(Date.parse(dueAt) <= now ? 'overdue' : 'due', { time: fullTime(dueAt) });
}
