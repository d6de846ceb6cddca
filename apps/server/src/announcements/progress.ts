import { EventName, topicRoom } from '@btalk/contracts';
import type { Kysely } from 'kysely';
import { topicEvent } from '../commands/topicEvents.ts';
import type { Database } from '../db/index.ts';
import type { EventBus } from '../events/bus.ts';
import { type NewDomainEvent, recordEvents } from '../events/eventLog.ts';
import { totalsOf } from '../presenters/announcement.ts';

/** What the progress emitter needs. */
export interface ProgressEmitterOptions {
  db: Kysely<Database>;
  bus: EventBus;
  /** The shortest time between two emissions (default 500 ms: at most twice a second per post). */
  intervalMs?: number;
  /** Told when an emission failed (the next commit tries again). */
  onError?(error: unknown): void;
}

/**
 * Tells each important post's topic its new counts (`announcement.progress`) after acknowledgements
 * and "seen"s, coalesced: at most one event per post per interval (per instance), and always a
 * trailing one, so the last counts go out. Commands only move the counters and `changes` in their
 * own transaction (whoever calls them: web, Teams card, push action); after a commit this emitter
 * reads the posts whose `changes` passed `emitted_changes` (a partial index), and in one small
 * transaction takes each with a conditional update (so two instances never tell the same change
 * twice) and records its event with the counts of now.
 */
export class AnnouncementProgressEmitter {
  readonly #options: ProgressEmitterOptions;
  #unsubscribe: (() => void) | null = null;
  #timer: NodeJS.Timeout | null = null;
  #running: Promise<number> | null = null;
  /** A commit came while a run was in progress or waiting: run (again) after it. */
  #again = false;
  #lastRun = 0;
  #stopped = false;

  constructor(options: ProgressEmitterOptions) {
    this.#options = options;
  }

  /** Listens for commits. */
  start(): void {
    if (this.#unsubscribe || this.#stopped) return;
    this.#unsubscribe = this.#options.bus.onCommitted(() => this.#wake());
  }

  #wake(): void {
    if (this.#stopped) return;
    if (this.#timer || this.#running) {
      this.#again = true;
      return;
    }
    const interval = this.#options.intervalMs ?? 500;
    const wait = Math.max(0, this.#lastRun + interval - Date.now());
    this.#timer = setTimeout(() => {
      this.#timer = null;
      this.#again = false;
      this.#lastRun = Date.now();
      this.#running = this.emit()
        .catch((error: unknown) => {
          this.#options.onError?.(error);
          return 0;
        })
        .finally(() => {
          this.#running = null;
          if (this.#again) this.#wake();
        });
    }, wait);
    this.#timer.unref();
  }

  /** Records the progress events of every post whose counts moved; answers how many. */
  async emit(): Promise<number> {
    const { db, bus } = this.#options;
    const moved = await db
      .selectFrom('announcements')
      .select(['post_id', 'changes'])
      .where((eb) => eb('changes', '>', eb.ref('emitted_changes')))
      .limit(500)
      .execute();
    if (moved.length === 0) return 0;
    const told = await db.transaction().execute(async (trx) => {
      const events: NewDomainEvent[] = [];
      for (const { post_id } of moved.sort((a, b) => a.post_id.localeCompare(b.post_id))) {
        const row = await trx
          .updateTable('announcements')
          .set((eb) => ({ emitted_changes: eb.ref('changes') }))
          .where('post_id', '=', post_id)
          .where((eb) => eb('changes', '>', eb.ref('emitted_changes')))
          .returningAll()
          .executeTakeFirst();
        if (!row) continue;
        events.push(
          topicEvent(
            topicRoom(row.topic_id),
            {
              type: EventName.announcementProgress,
              payload: { postId: row.post_id, topicId: row.topic_id, totals: totalsOf(row) },
            },
            null,
          ),
        );
      }
      await recordEvents(trx, events);
      return events.length;
    });
    if (told > 0) bus.committed();
    return told;
  }

  /** Stops listening and waits for an emission in progress. */
  async stop(): Promise<void> {
    this.#stopped = true;
    this.#unsubscribe?.();
    this.#unsubscribe = null;
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
    await this.#running;
  }
}
