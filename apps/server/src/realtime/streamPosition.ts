/**
 * Where this instance's realtime stream is in the event log, for the API's answers
 * (`EVENT_SEQ_HEADER`): the hub attaches itself when it has found the log's head, and detaches when
 * it stops. Null until then (and on a server without the stream): answers then carry no position.
 */
export class StreamPosition {
  #read: (() => number) | null = null;

  /** The hub's position from now on. */
  attach(read: () => number): void {
    this.#read = read;
  }

  detach(): void {
    this.#read = null;
  }

  /** Every event up to this one had been read by the stream; null when there is no stream yet. */
  get(): number | null {
    return this.#read ? this.#read() : null;
  }
}
