import type { CallStatus } from '@btalk/contracts';
import { describe, expect, it } from 'vitest';
import {
  attentionOrder,
  attentionOrderFromShape,
  branchesFromShape,
  branchesOf,
  carryShape,
  type RollupPerson,
  shapeOf,
} from './rollup.ts';

const STATUSES: CallStatus[] = ['no_answer', 'safe', 'need_help'];
const DEPARTMENTS = ['Operations', 'Finance', null];
const NAMES = ['Somchai', 'Kanya', 'Malee', 'Niran', 'Pim', 'สมชาย', 'กัญญา', 'Arthit'];

/**
 * An event's people: ten reports per manager four levels deep (1,111), names that repeat (the id
 * breaks ties), a branch whose top names a manager outside the event, and a loop of bad data.
 */
function eventPeople(): Map<string, RollupPerson> {
  const people: RollupPerson[] = [];
  const person = (id: string, managerId: string | null, depth: number, n: number) =>
    ({
      id,
      displayName: NAMES[n % NAMES.length]!,
      managerId,
      depth,
      department: DEPARTMENTS[n % 3]!,
      status: STATUSES[(n * 7) % 3]!,
      optionId: null,
    }) as RollupPerson;
  for (let i = 0; i < 1111; i++) {
    let depth = 0;
    for (let j = i; j > 0; j = Math.floor((j - 1) / 10)) depth++;
    people.push(
      person(
        `p${String(i).padStart(4, '0')}`,
        i === 0 ? null : `p${String(Math.floor((i - 1) / 10)).padStart(4, '0')}`,
        depth,
        i,
      ),
    );
  }
  people.push(person('branch', 'outsider', 0, 1), person('under', 'branch', 1, 2));
  people.push(person('x', 'y', 1, 3), person('y', 'x', 1, 4), person('z', 'y', 2, 5));
  return new Map(people.map((p) => [p.id, p]));
}

describe("an event's shape", () => {
  it('counts the branches as branchesOf does, for everyone and for a department', () => {
    const all = eventPeople();
    const people = [...all.values()];
    const shape = shapeOf(all);
    expect(shape.branches.length).toBeGreaterThan(100);
    expect(branchesFromShape(shape, people)).toEqual(branchesOf(people, people));
    const finance = people.filter((p) => p.department === 'Finance');
    expect(branchesFromShape(shape, finance)).toEqual(branchesOf(people, finance));
  });

  it('orders people as attentionOrder does, with any filter', () => {
    const all = eventPeople();
    const people = [...all.values()];
    const shape = shapeOf(all);
    const ids = (list: RollupPerson[]) => list.map((p) => p.id);
    expect(ids(attentionOrderFromShape(shape, all, () => true))).toEqual(ids(attentionOrder(people)));
    const filter = (p: RollupPerson) => p.department === 'Operations' && p.status !== 'safe';
    expect(ids(attentionOrderFromShape(shape, all, filter))).toEqual(
      ids(attentionOrder(people.filter(filter))),
    );
  });

  it('is carried to the same people with newer answers, which count with their new status', () => {
    const all = eventPeople();
    const shape = shapeOf(all);
    const patched = new Map(all);
    for (const id of ['p0005', 'p0123', 'p1000']) patched.set(id, { ...all.get(id)!, status: 'need_help' });
    carryShape(all, patched);
    expect(shapeOf(patched)).toBe(shape);
    const people = [...patched.values()];
    expect(branchesFromShape(shape, people)).toEqual(branchesOf(people, people));
    expect(attentionOrderFromShape(shape, patched, () => true).map((p) => p.id)).toEqual(
      attentionOrder(people).map((p) => p.id),
    );
    // Without carrying, a load gets a shape of its own.
    expect(shapeOf(new Map(all))).not.toBe(shape);
  });
});
