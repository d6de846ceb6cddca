import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FreshLoads } from './freshLoads.ts';

describe('FreshLoads', () => {
  beforeEach(() => {
    // setImmediate stays real: readers of a shared load go on one per turn of the loop.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  /** A load that counts its beginnings and finishes when told, with the number of its beginning. */
  function counter() {
    const begun: Array<(value: number) => void> = [];
    const load = () =>
      new Promise<number>((resolve) => {
        begun.push(resolve);
      });
    const finish = (n: number) => begun[n - 1]!(n);
    return { begun, load, finish };
  }

  it('begins at once when the key was not loaded lately', async () => {
    const loads = new FreshLoads<number>(250);
    const { begun, load, finish } = counter();
    const first = loads.get('e1', load);
    expect(begun).toHaveLength(1);
    finish(1);
    expect(await first).toBe(1);
  });

  it('serves every reader with a load begun after it asked, shared by those who came meanwhile', async () => {
    const loads = new FreshLoads<number>(250);
    const { begun, load, finish } = counter();
    const first = loads.get('e1', load);
    // Two readers while the first load is under way: neither may have it (it began before they asked).
    const second = loads.get('e1', load);
    const third = loads.get('e1', load);
    expect(begun).toHaveLength(1);
    finish(1);
    expect(await first).toBe(1);
    await vi.advanceTimersByTimeAsync(249);
    expect(begun).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    // One more load, at most every 250 ms, for both of them.
    expect(begun).toHaveLength(2);
    finish(2);
    expect([await second, await third]).toEqual([2, 2]);
  });

  it('begins at most one load per gap however many ask, and keeps keys apart', async () => {
    const loads = new FreshLoads<number>(250);
    const { begun, load, finish } = counter();
    const other = counter();
    const answers: Promise<number>[] = [];
    for (let ms = 0; ms < 1000; ms += 10) {
      answers.push(loads.get('e1', load));
      if (begun.length > 0) finish(begun.length);
      await vi.advanceTimersByTimeAsync(10);
    }
    const o = loads.get('e2', other.load);
    expect(other.begun).toHaveLength(1);
    other.finish(1);
    await o;
    await vi.advanceTimersByTimeAsync(300);
    for (let n = 1; n <= begun.length; n++) finish(n);
    const served = await Promise.all(answers);
    // 100 readers over one second: four or five loads, each reader served in order of asking.
    expect(begun.length).toBeLessThanOrEqual(5);
    expect([...served].sort((a, b) => a - b)).toEqual(served);
  });

  it('passes a failed load to the readers that waited for it, and loads again for the next', async () => {
    const loads = new FreshLoads<number>(250);
    let fail = true;
    const load = () => (fail ? Promise.reject(new Error('database gone')) : Promise.resolve(7));
    await expect(loads.get('e1', load)).rejects.toThrow('database gone');
    fail = false;
    const next = loads.get('e1', load);
    await vi.advanceTimersByTimeAsync(250);
    expect(await next).toBe(7);
  });

  it('lets the readers of a shared load go on one per turn of the event loop', async () => {
    const loads = new FreshLoads<number>(250);
    const { load, finish } = counter();
    const first = loads.get('e1', load);
    const went: number[] = [];
    const readers = [1, 2, 3].map((n) => loads.get('e1', load).then(() => went.push(n)));
    finish(1);
    await first;
    await vi.advanceTimersByTimeAsync(250);
    finish(2);
    for (let i = 0; i < 10; i++) await Promise.resolve();
    // The first reader went on; the others wait for their turns (I/O is polled in between).
    expect(went).toEqual([1]);
    await Promise.all(readers);
    expect(went).toEqual([1, 2, 3]);
  });

  it('hands each load the last value of its key, kept for a while after the last read, then forgotten', async () => {
    const loads = new FreshLoads<number>(250, 10_000);
    const given: Array<number | undefined> = [];
    const load = async (previous: number | undefined) => {
      given.push(previous);
      return (previous ?? 0) + 1;
    };
    expect(await loads.get('e1', load)).toBe(1);
    await vi.advanceTimersByTimeAsync(5_000);
    expect(await loads.get('e1', load)).toBe(2);
    // Another key starts from nothing.
    expect(await loads.get('e2', load)).toBe(1);
    await vi.advanceTimersByTimeAsync(9_000);
    expect(await loads.get('e1', load)).toBe(3);
    // Nobody read e1 for longer than it is kept: the next load starts afresh.
    await vi.advanceTimersByTimeAsync(10_500);
    expect(await loads.get('e1', load)).toBe(1);
    expect(given).toEqual([undefined, 1, undefined, 2, undefined]);
  });

  it('keeps the value of the load begun last when two overlap', async () => {
    const loads = new FreshLoads<string>(250, 10_000);
    const begun: Array<(value: string) => void> = [];
    const given: Array<string | undefined> = [];
    const load = (previous: string | undefined) => {
      given.push(previous);
      return new Promise<string>((resolve) => begun.push(resolve));
    };
    const slow = loads.get('e1', load);
    await vi.advanceTimersByTimeAsync(300);
    const quick = loads.get('e1', load);
    expect(begun).toHaveLength(2);
    begun[1]!('second');
    expect(await quick).toBe('second');
    begun[0]!('first');
    expect(await slow).toBe('first');
    await vi.advanceTimersByTimeAsync(300);
    const next = loads.get('e1', load);
    begun[2]!('third');
    await next;
    expect(given).toEqual([undefined, undefined, 'second']);
  });
});
