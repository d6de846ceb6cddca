import { EventEmitter } from 'node:events';

/**
 * Tells the parts of this process that stream events (realtime) that a transaction which recorded
 * domain events has committed. It carries no events itself: listeners read them from the event log,
 * which stays the one source of truth (and the way to catch up after anything is missed).
 */
export class EventBus {
  readonly #emitter = new EventEmitter();

  constructor() {
    this.#emitter.setMaxListeners(0);
  }

  /** Signals that new events may be in the log. */
  committed(): void {
    this.#emitter.emit('committed');
  }

  /** Calls `listener` after every commit that may have added events; returns an unsubscribe function. */
  onCommitted(listener: () => void): () => void {
    this.#emitter.on('committed', listener);
    return () => this.#emitter.off('committed', listener);
  }
}
