import { describe, expect, it } from 'vitest';
import {
  type Audience,
  type AudiencePerson,
  audienceCsv,
  branchesOf,
  countPeople,
  inBranch,
  managerChain,
  pageOfPeople,
} from './report.ts';

/** An audience from (id, manager, acknowledged) triples; names are the ids. */
function audienceOf(
  people: [string, string | null, boolean][],
  outside: [string, string | null][] = [],
): Audience {
  const managers = new Map<string, string | null>([...people.map(([id, m]) => [id, m] as const), ...outside]);
  const names = new Map([...managers.keys()].map((id) => [id, id.toUpperCase()]));
  const chainOf = managerChain(managers);
  return {
    names,
    managers,
    people: people.map(
      ([id, manager, acknowledged]): AudiencePerson => ({
        id,
        displayName: id.toUpperCase(),
        email: `${id}@btalk.test`,
        department: null,
        managerId: manager,
        managerName: manager ? manager.toUpperCase() : null,
        seenAt: null,
        acknowledgedAt: acknowledged ? '2026-11-27T10:00:00.000Z' : null,
        chain: chainOf(id),
      }),
    ),
  };
}

describe('announcement roll-up', () => {
  it('heads branches with managers outside the audience and walks depth first in name order', () => {
    const audience = audienceOf(
      [
        ['b', 'top', true],
        ['a', 'top', false],
        ['a1', 'a', false],
        ['b1', 'b', true],
      ],
      [['top', null]],
    );
    expect(
      branchesOf(audience, audience.people).map((b) => [
        b.id,
        b.depth,
        b.managerId,
        b.audience,
        b.acknowledged,
      ]),
    ).toEqual([
      ['top', 0, null, 4, 2],
      ['a', 1, 'top', 2, 0],
      ['b', 1, 'top', 2, 2],
    ]);
    expect(inBranch(audience.people, 'a').map((p) => p.id)).toEqual(['a', 'a1']);
  });

  it('survives a loop in the directory', () => {
    const audience = audienceOf([
      ['x', 'y', false],
      ['y', 'x', true],
    ]);
    const branches = branchesOf(audience, audience.people);
    expect(branches.map((b) => b.id).sort()).toEqual(['x', 'y']);
    expect(countPeople(audience.people)).toEqual({ audience: 2, seen: 1, acknowledged: 1, notYet: 1 });
  });

  it('rolls up 10,000 people, pages through all of them and writes them all to the CSV', () => {
    const people: [string, string | null, boolean][] = [['p0', null, false]];
    for (let i = 1; i < 10_000; i++) people.push([`p${i}`, `p${Math.floor((i - 1) / 8)}`, i % 3 === 0]);
    const audience = audienceOf(people);
    const branches = branchesOf(audience, audience.people);
    let cursor: string | null = null;
    let seen = 0;
    do {
      const page: ReturnType<typeof pageOfPeople> = pageOfPeople(audience.people, cursor ?? undefined, 500);
      seen += page.items.length;
      cursor = page.nextCursor;
    } while (cursor);
    const csv = audienceCsv(audience.people, 'Asia/Bangkok');
    expect(branches[0]).toMatchObject({ id: 'p0', depth: 0, audience: 10_000 });
    expect(seen).toBe(10_000);
    expect(csv.split('\r\n')).toHaveLength(10_002);
  });
});
