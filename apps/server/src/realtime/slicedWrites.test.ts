import { describe, expect, it } from 'vitest';
import { SlicedWrites } from './slicedWrites.ts';

/** One turn of the event loop (the sliced writes continue in `setImmediate`). */
const turn = () => new Promise((resolve) => setImmediate(resolve));

/** Sockets that note in `log` when their waiting frames are written. */
function sockets(log: string[], names: string[]) {
  return names.map((name) => ({ writePending: () => log.push(name) }));
}

describe('sliced writes', () => {
  it('writes one slice at once and the others in later turns of the event loop, in order', async () => {
    const log: string[] = [];
    const writes = new SlicedWrites(2);
    for (const socket of sockets(log, ['a', 'b', 'c', 'd', 'e'])) writes.add(socket);
    writes.start();
    expect(log).toEqual(['a', 'b']);
    await turn();
    expect(log).toEqual(['a', 'b', 'c', 'd']);
    await turn();
    expect(log).toEqual(['a', 'b', 'c', 'd', 'e']);
  });

  it('writes sockets queued during a pass in the same pass, after those already waiting', async () => {
    const log: string[] = [];
    const writes = new SlicedWrites(2);
    const [a, b, c, d] = sockets(log, ['a', 'b', 'c', 'd']);
    for (const socket of [a!, b!, c!]) writes.add(socket);
    writes.start();
    // A second event: `a` again (already written) and `d`; a pass under way is not hurried.
    writes.add(a!);
    writes.add(d!);
    writes.start();
    expect(log).toEqual(['a', 'b']);
    await turn();
    await turn();
    expect(log).toEqual(['a', 'b', 'c', 'a', 'd']);
    // The next pass starts afresh.
    writes.add(b!);
    writes.start();
    expect(log).toEqual(['a', 'b', 'c', 'a', 'd', 'b']);
  });
});
