import { randomBytes } from 'node:crypto';
import type { Post, PostPage } from '@btalk/contracts';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { newId } from './ids.ts';
import { describeEachDatabase } from './test/db.ts';
import {
  type Api,
  apiAs,
  type PreparedData,
  prepareData,
  type ServerProcess,
  startServerProcess,
} from './test/serverProcess.ts';

/*
 * DESIGN.md section 9: "No acknowledged write is ever lost: kill -9 of the server during load loses
 * nothing that a client was told was saved." The real server runs as a child process; writers post
 * concurrently, the server gets SIGKILL with requests in flight, and after a restart on the same
 * data every post that was answered `code: 0` must be there, once, with its exact text.
 */

/** Concurrent writers while the server is up. */
const WRITERS = 8;
/** The server is killed as soon as this many posts have been acknowledged. */
const KILL_AFTER_ACKNOWLEDGED = 50;
/** No writer starts a post after this many in all (the kill normally comes long before). */
const MAX_POSTS = 300;

/** A post request a writer sent. */
interface Sent {
  clientId: string;
  body: string;
}

/** A post the server acknowledged (`code: 0`), as it answered it. */
interface Acknowledged extends Sent {
  id: string;
  number: number;
}

/** What happened to the posts sent while the server was killed. */
interface LoadOutcome {
  acknowledged: Acknowledged[];
  /** Requests that got no answer: the kill cut them off. */
  unanswered: Sent[];
  /** Answers other than `code: 0` (none are expected from a healthy server). */
  refused: string[];
  /** Requests still waiting for their answer when SIGKILL was sent. */
  inFlightAtKill: number;
}

/**
 * Posts to the topic from WRITERS concurrent writers and kills the server (SIGKILL) at the
 * KILL_AFTER_ACKNOWLEDGED-th acknowledgement, while the other writers' requests are in flight.
 */
async function writeUntilKilled(server: ServerProcess, api: Api, topicId: string): Promise<LoadOutcome> {
  const outcome: LoadOutcome = { acknowledged: [], unanswered: [], refused: [], inFlightAtKill: -1 };
  let started = 0;
  let inFlight = 0;
  // Set inside the writers; `as` keeps TypeScript from taking it for always null after they finish.
  let killed = null as Promise<void> | null;
  const writer = async (w: number) => {
    while (!killed && started < MAX_POSTS) {
      started += 1;
      const sent: Sent = {
        clientId: `kill9-${w}-${newId()}`,
        body: `Post ${started} of writer ${w}, ${randomBytes(8).toString('hex')} ✓`,
      };
      inFlight += 1;
      try {
        const res = await api(`/api/topics/${topicId}/posts`, { method: 'POST', body: JSON.stringify(sent) });
        const answer = (await res.json()) as { code: number; data?: Post };
        if (answer.code === 0 && answer.data) {
          outcome.acknowledged.push({ ...sent, id: answer.data.id, number: answer.data.number });
          if (!killed && outcome.acknowledged.length >= KILL_AFTER_ACKNOWLEDGED) {
            outcome.inFlightAtKill = inFlight - 1;
            killed = server.kill9();
          }
        } else {
          outcome.refused.push(`${res.status} ${JSON.stringify(answer)}`);
        }
      } catch {
        outcome.unanswered.push(sent);
      } finally {
        inFlight -= 1;
      }
    }
  };
  await Promise.all(Array.from({ length: WRITERS }, (_, w) => writer(w)));
  // Only when the kill never came (MAX_POSTS reached first); the assertions then fail.
  if (!killed) await server.kill9();
  else await killed;
  return outcome;
}

/** Every post of the topic, paging through with the cursor (newest first). */
async function listAllPosts(api: Api, topicId: string): Promise<Post[]> {
  const posts: Post[] = [];
  let cursor: string | null = null;
  do {
    const query: string = cursor ? `&cursor=${encodeURIComponent(cursor)}` : '';
    const res = await api(`/api/topics/${topicId}/posts?limit=100${query}`);
    const answer = (await res.json()) as { code: number; data: PostPage };
    if (answer.code !== 0) throw new Error(`listing the posts answered ${JSON.stringify(answer)}`);
    posts.push(...answer.data.items);
    cursor = answer.data.nextCursor;
  } while (cursor);
  return posts;
}

/** The values that occur more than once (again for each repeat). */
function duplicates<T>(values: T[]): T[] {
  const seen = new Set<T>();
  return values.filter((v) => {
    if (seen.has(v)) return true;
    seen.add(v);
    return false;
  });
}

describeEachDatabase('kill -9 during writes', (kind) => {
  let data: PreparedData | null = null;
  const servers: ServerProcess[] = [];

  beforeAll(async () => {
    data = await prepareData(kind);
  });

  afterAll(async () => {
    for (const server of servers) await server.kill9();
    await data?.cleanup();
  });

  it('loses no acknowledged post, and client retries after the restart make no duplicates', async () => {
    if (!data) throw new Error('the data was not prepared');
    const first = await startServerProcess(data.env);
    servers.push(first);
    // A kill -9 cannot lose what the operating system already holds (only a power cut can), so the
    // kill below would pass with fsync off: the server's own connection must flush every commit.
    const durability = await first.durability();
    if (kind === 'sqlite') {
      expect(durability).toEqual({
        journalMode: 'wal',
        synchronous: 'normal',
        logFsync: 'before each answer, off the event loop',
      });
    } else expect(durability.synchronousCommit).not.toBe('off');
    const api1 = await apiAs(first, data);
    const created = await api1('/api/topics', {
      method: 'POST',
      body: JSON.stringify({ title: 'Durability under kill -9', visibility: 'organisation' }),
    });
    const answer = (await created.json()) as { code: number; data: { id: string } };
    expect(answer.code, JSON.stringify(answer)).toBe(0);
    const topic = answer.data;

    const outcome = await writeUntilKilled(first, api1, topic.id);
    expect(outcome.refused, first.output()).toEqual([]);
    expect(outcome.acknowledged.length).toBeGreaterThanOrEqual(KILL_AFTER_ACKNOWLEDGED);
    // The kill came while other writers' requests were on their way, not between requests.
    expect(outcome.inFlightAtKill).toBeGreaterThan(0);

    const second = await startServerProcess(data.env);
    servers.push(second);
    const api2 = await apiAs(second, data);
    const afterRestart = await listAllPosts(api2, topic.id);
    expect(duplicates(afterRestart.map((p) => p.clientId))).toEqual([]);
    expect(duplicates(afterRestart.map((p) => p.number))).toEqual([]);
    const byClientId = new Map(afterRestart.map((p) => [p.clientId, p]));
    const lost = outcome.acknowledged.filter((a) => {
      const post = byClientId.get(a.clientId);
      return !post || post.id !== a.id || post.number !== a.number || post.body !== a.body;
    });
    expect(lost, `${lost.length} acknowledged post(s) missing or changed after kill -9`).toEqual([]);
    // Nothing appears that no writer sent.
    const sent = new Set([...outcome.acknowledged, ...outcome.unanswered].map((s) => s.clientId));
    expect(afterRestart.filter((p) => !sent.has(p.clientId))).toEqual([]);

    // A client retries what got no answer with the same clientId: each ends up there exactly once.
    for (const retry of outcome.unanswered) {
      const res = await api2(`/api/topics/${topic.id}/posts`, {
        method: 'POST',
        body: JSON.stringify(retry),
      });
      expect(((await res.json()) as { code: number }).code).toBe(0);
    }
    const afterRetries = await listAllPosts(api2, topic.id);
    expect(duplicates(afterRetries.map((p) => p.clientId))).toEqual([]);
    expect(afterRetries).toHaveLength(sent.size);
    const retried = new Map(afterRetries.map((p) => [p.clientId, p.body]));
    for (const s of [...outcome.acknowledged, ...outcome.unanswered]) {
      expect(retried.get(s.clientId)).toBe(s.body);
    }
  }, 60_000);
});
