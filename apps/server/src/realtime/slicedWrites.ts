/** Something with frames waiting to be written to its socket (a connection). */
export interface Flushable {
  /** Writes what waits, in order, in one write; never throws. */
  writePending(): void;
}

/**
 * Writes the frames an event's fan-out left waiting on each socket, a slice of sockets at a time,
 * yielding to the event loop between slices. A fan-out to 5,000 sockets (5,000 writes) then does
 * not hold the process for its whole length: requests go on meanwhile, and an event committed
 * during it joins it, reaching the sockets not written yet in the same write as the first (one
 * write instead of two); sockets already written get it in a later turn of the same pass. Each
 * socket's frames keep their order; only when they reach the kernel changes.
 */
export class SlicedWrites {
  readonly #slice: number;
  #queue: Flushable[] = [];
  #done = 0;
  #running = false;

  constructor(slice: number) {
    this.#slice = slice;
  }

  /** Queues a socket that now has frames waiting (once until they are written). */
  add(item: Flushable): void {
    this.#queue.push(item);
  }

  /** Writes the next slice now and the rest in later turns; nothing more while a pass is under way. */
  start(): void {
    if (!this.#running) this.#write();
  }

  #write(): void {
    const end = Math.min(this.#queue.length, this.#done + this.#slice);
    while (this.#done < end) this.#queue[this.#done++]!.writePending();
    if (this.#done < this.#queue.length) {
      this.#running = true;
      setImmediate(() => this.#write());
      return;
    }
    this.#queue = [];
    this.#done = 0;
    this.#running = false;
  }
}
