import { describe, expect, it } from 'vitest';
import { chainIn } from './snapshots.ts';

describe('chainIn', () => {
  const managers = new Map<string, string | null>([
    ['top', null],
    ['mid', 'top'],
    ['leaf', 'mid'],
    // The top of a branch may name a manager the event does not target.
    ['branch', 'outsider'],
    // Bad data: a loop.
    ['x', 'y'],
    ['y', 'x'],
  ]);
  const managerOf = (id: string) => managers.get(id);

  it('walks from the person up to the top, nearest first', () => {
    expect(chainIn(managerOf, 'leaf')).toEqual(['leaf', 'mid', 'top']);
    expect(chainIn(managerOf, 'top')).toEqual(['top']);
  });

  it('is empty for someone not targeted and stops at a manager outside the snapshot', () => {
    expect(chainIn(managerOf, 'nobody')).toEqual([]);
    expect(chainIn(managerOf, 'branch')).toEqual(['branch']);
  });

  it('stops at the first repeat of a loop', () => {
    expect(chainIn(managerOf, 'x')).toEqual(['x', 'y']);
  });
});
