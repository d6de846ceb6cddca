/**
 * Which sockets each heartbeat tick pings. The heartbeat interval is split into `slices` ticks, each
 * pinging one slice of the sockets, so that no tick writes a ping to every socket at once: with
 * 5,000 sockets that burst is as long as an event's fan-out, and an event committed meanwhile
 * waits for it. Every socket is still pinged once per interval.
 */
export class HeartbeatSlices<T> {
  readonly #slices: Set<T>[];
  readonly #sliceOf = new Map<T, Set<T>>();
  #tick = 0;

  constructor(slices: number) {
    this.#slices = Array.from({ length: slices }, () => new Set<T>());
  }

  /** Adds a socket to the smallest slice (slices stay even as sockets come and go). */
  add(member: T): void {
    let smallest = this.#slices[0]!;
    for (const slice of this.#slices) if (slice.size < smallest.size) smallest = slice;
    smallest.add(member);
    this.#sliceOf.set(member, smallest);
  }

  /** Removes a socket (closed). */
  delete(member: T): void {
    this.#sliceOf.get(member)?.delete(member);
    this.#sliceOf.delete(member);
  }

  /** The sockets to ping at this tick: the next slice in turn. */
  next(): ReadonlySet<T> {
    const slice = this.#slices[this.#tick]!;
    this.#tick = (this.#tick + 1) % this.#slices.length;
    return slice;
  }
}
