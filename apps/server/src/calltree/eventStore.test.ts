import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { headersFor, type Org, runningEvent as startRunningEvent } from '../test/calltree.ts';
import { describeEachDatabase } from '../test/db.ts';
import { useTestServer } from '../test/server.ts';
import { type SignedIn, signedIn } from '../test/session.ts';
import { escalateDue } from './escalation.ts';
import { branchOf, FULL_RELOAD_MS, type LoadedEventPeople, loadEventPeopleSince } from './eventStore.ts';
import type { RollupPerson } from './rollup.ts';
import { chainIn } from './snapshots.ts';

const MINUTE = 60_000;

describeEachDatabase("an event's people brought up to date from its answers", (kind) => {
  const server = useTestServer(kind);
  let admin: SignedIn;

  beforeAll(async () => {
    admin = await signedIn(server, { role: 'admin' });
  });

  const runningEvent = () => startRunningEvent(server, admin.headers, 'Flood');

  const answer = async (who: Org[keyof Org], eventId: string, body: object) => {
    const res = await server.request({
      method: 'POST',
      url: `/api/calltree/events/${eventId}/answers`,
      headers: await headersFor(server, who),
      payload: { id: randomUUID(), ...body },
    });
    expect(res.statusCode).toBe(200);
  };

  const load = (eventId: string, previous?: LoadedEventPeople) =>
    loadEventPeopleSince(server.ctx.db.kysely, eventId, previous);

  /** What a load holds, without the map's identity. */
  const contents = (loaded: LoadedEventPeople) => ({
    people: [...loaded.all.values()].sort((a, b) => (a.id < b.id ? -1 : 1)),
    totals: loaded.totals,
  });

  it('reads again only those with a change since, and ends where a whole read would', async () => {
    const { org, eventId, startedAt } = await runningEvent();
    const first = await load(eventId);
    expect(first.all.size).toBe(9);
    expect(first.totals).toEqual({ total: 9, safe: 0, needHelp: 0, noAnswer: 9 });

    // Nothing happened: the same load, so the roll-up parts computed from it are reused.
    expect(await load(eventId, first)).toBe(first);

    await answer(org.c1, eventId, { optionId: 'safe' });
    await answer(org.c3, eventId, { optionId: 'need_help', note: 'Water in the lobby', location: 'Lobby' });
    // B1 answers for C2, reached by phone.
    await answer(org.b1, eventId, { personId: org.c2.id, optionId: 'safe', reachedVia: 'phone' });
    const second = await load(eventId, first);
    expect(second).not.toBe(first);
    expect(second.seq).toBeGreaterThan(first.seq);
    expect(second.fullAt).toBe(first.fullAt);
    expect(second.totals).toEqual({ total: 9, safe: 2, needHelp: 1, noAnswer: 6 });
    expect(second.all.get(org.c3.id)).toMatchObject({
      status: 'need_help',
      note: 'Water in the lobby',
      location: 'Lobby',
      managerName: org.b3.display_name,
      answeredByName: org.c3.display_name,
    });
    expect(second.all.get(org.c2.id)).toMatchObject({
      status: 'safe',
      onBehalf: true,
      onBehalfReachedVia: 'phone',
      answeredByName: org.b1.display_name,
    });
    // Those without a change are the same objects; the first load is left as it was.
    expect(second.all.get(org.a1.id)).toBe(first.all.get(org.a1.id));
    expect(first.all.get(org.c3.id)!.status).toBe('no_answer');
    expect(first.totals.noAnswer).toBe(9);
    expect(contents(second)).toEqual(contents(await load(eventId)));

    // An escalation is an event of the room too: the escalated people's count shows.
    expect(await escalateDue(server.ctx.db.kysely, new Date(startedAt + 15 * MINUTE + 1000))).toBeGreaterThan(
      0,
    );
    const third = await load(eventId, second);
    expect(third.all.get(org.a1.id)!.escalations).toBe(1);
    expect(third.all.get(org.c1.id)!.escalations).toBe(0);
    expect(contents(third)).toEqual(contents(await load(eventId)));
  });

  it('reads everyone again once the last whole read is old (names in the directory change too)', async () => {
    const { org, eventId } = await runningEvent();
    const first = await load(eventId);
    await server.ctx.db.kysely
      .updateTable('users')
      .set({ display_name: 'B1 renamed' })
      .where('id', '=', org.b1.id)
      .execute();
    // No answer since: without a whole read the old name stays.
    expect((await load(eventId, first)).all.get(org.b1.id)!.displayName).toBe(org.b1.display_name);
    const stale = { ...first, fullAt: Date.now() - FULL_RELOAD_MS - 1 };
    const whole = await load(eventId, stale);
    expect(whole.fullAt).toBeGreaterThan(stale.fullAt);
    expect(whole.all.get(org.b1.id)!.displayName).toBe('B1 renamed');
    expect(whole.all.get(org.c1.id)!.managerName).toBe('B1 renamed');
  });
});

describe('branchOf', () => {
  const person = (id: string, managerId: string | null) => ({ id, managerId }) as RollupPerson;
  const all = new Map(
    [
      person('top', null),
      person('a', 'top'),
      person('b', 'top'),
      person('a1', 'a'),
      person('a2', 'a'),
      person('a11', 'a1'),
      person('b1', 'b'),
      // The top of a branch may name a manager the event does not target.
      person('branch', 'outsider'),
      person('under', 'branch'),
      // Bad data: a loop.
      person('x', 'y'),
      person('y', 'x'),
      person('z', 'y'),
    ].map((p) => [p.id, p]),
  );
  /** The rule it must agree with: those whose manager chain holds the viewer. */
  const byChains = (viewer: string) =>
    [...all.values()]
      .filter((p) => chainIn((id) => all.get(id)?.managerId, p.id).includes(viewer))
      .map((p) => p.id)
      .sort();

  it('is everyone whose chain holds the person, them included, each once', () => {
    for (const viewer of ['top', 'a', 'a1', 'a11', 'b', 'branch', 'x', 'y', 'z', 'nobody', 'outsider']) {
      expect(
        branchOf(all, viewer)
          .map((p) => p.id)
          .sort(),
        viewer,
      ).toEqual(byChains(viewer));
    }
    expect(branchOf(all, 'a').map((p) => p.id)).toEqual(['a', 'a1', 'a2', 'a11']);
  });
});
