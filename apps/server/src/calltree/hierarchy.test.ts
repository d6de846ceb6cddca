import { describe, expect, it } from 'vitest';
import { branchOf, type DirectoryEntry, placeFromDirectory, wholeTree, wouldLoop } from './hierarchy.ts';

const person = (id: string, manager: string | null, issuer = 'https://dir'): DirectoryEntry => ({
  id,
  issuer,
  subject: `s-${id}`,
  managerSubject: manager ? `s-${manager}` : null,
});

describe('placeFromDirectory', () => {
  it('places everyone under their manager and reports loops, self-managers and missing managers', () => {
    const { placed, unplaced } = placeFromDirectory(
      [
        person('top', null),
        person('mid', 'top'),
        person('low', 'mid'),
        person('self', 'self'),
        person('x', 'y'),
        person('y', 'x'),
        person('under-x', 'x'),
        person('gone', 'nobody'),
        person('under-gone', 'gone'),
        // The same subject at another issuer is another person: no manager match across issuers.
        person('elsewhere', 'top', 'https://other'),
      ],
      null,
    );
    expect(Object.fromEntries(placed)).toEqual({ top: null, mid: 'top', low: 'mid' });
    expect(Object.fromEntries(unplaced.map((u) => [u.id, u.reason]))).toEqual({
      self: 'manager_loop',
      x: 'manager_loop',
      y: 'manager_loop',
      'under-x': 'under_unplaced_manager',
      gone: 'manager_outside_tree',
      'under-gone': 'under_unplaced_manager',
      elsewhere: 'manager_outside_tree',
    });
  });

  it('builds one branch from its top person, leaving everyone else out', () => {
    const { placed, unplaced } = placeFromDirectory(
      [person('top', null), person('mid', 'top'), person('low', 'mid'), person('other', 'top')],
      'mid',
    );
    expect(Object.fromEntries(placed)).toEqual({ mid: null, low: 'mid' });
    expect(unplaced).toEqual([]);
  });
});

describe('tree helpers', () => {
  const members = new Map<string, string | null>([
    ['top', null],
    ['a', 'top'],
    ['b', 'a'],
    ['c', 'top'],
  ]);

  it('walks a branch and the whole tree top first, with depths', () => {
    expect(branchOf(members, 'a')).toEqual([
      { id: 'a', depth: 0 },
      { id: 'b', depth: 1 },
    ]);
    expect(wholeTree(members).map((x) => `${x.id}:${x.depth}`)).toEqual(['top:0', 'a:1', 'c:1', 'b:2']);
  });

  it('knows when a move would make a loop', () => {
    expect(wouldLoop(members, 'a', 'b')).toBe(true);
    expect(wouldLoop(members, 'a', 'a')).toBe(true);
    expect(wouldLoop(members, 'a', 'c')).toBe(false);
  });
});
