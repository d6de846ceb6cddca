import { describe, expect, it } from 'vitest';
import { HeartbeatSlices } from './heartbeat.ts';

/** The slices of one round of ticks, as arrays. */
function round<T>(slices: HeartbeatSlices<T>, ticks: number): T[][] {
  return Array.from({ length: ticks }, () => [...slices.next()]);
}

describe('heartbeat slices', () => {
  it('pings every socket once per round, a tenth of them per tick', () => {
    const slices = new HeartbeatSlices<number>(10);
    for (let i = 0; i < 5000; i += 1) slices.add(i);
    const ticks = round(slices, 10);
    expect(ticks.map((t) => t.length)).toEqual(Array(10).fill(500));
    expect(new Set(ticks.flat()).size).toBe(5000);
    // The next round pings the same sockets in the same order.
    expect(round(slices, 10)).toEqual(ticks);
  });

  it('stops pinging a removed socket, and keeps slices even as sockets come and go', () => {
    const slices = new HeartbeatSlices<string>(3);
    for (const id of ['a', 'b', 'c', 'd', 'e', 'f']) slices.add(id);
    slices.delete('a');
    slices.delete('d');
    slices.add('g');
    const ticks = round(slices, 3);
    expect(ticks.flat().sort()).toEqual(['b', 'c', 'e', 'f', 'g']);
    expect(Math.max(...ticks.map((t) => t.length))).toBe(2);
  });
});
