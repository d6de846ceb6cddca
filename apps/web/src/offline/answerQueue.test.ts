import type { CallAnswer, CallAnswerRequest } from '@btalk/contracts';
import { describe, expect, it } from 'vitest';
import { HttpError, NetworkError } from '../api/errors.ts';
import {
  ANSWER_QUEUE_KEY,
  createAnswerQueue,
  isRetryable,
  type QueuedAnswer,
  type QueueStorage,
} from './answerQueue.ts';

function memoryStorage(): QueueStorage & { data: Map<string, QueuedAnswer[]> } {
  const data = new Map<string, QueuedAnswer[]>();
  return {
    data,
    get: async (key) => data.get(key),
    set: async (key, value) => {
      data.set(key, structuredClone(value));
    },
  };
}

/** A server that records what it received and can be made unreachable or refusing. */
function fakeServer() {
  const received: Array<{ eventId: string; body: CallAnswerRequest }> = [];
  const state = { reachable: true, refuse: false };
  const send = async (eventId: string, body: CallAnswerRequest): Promise<CallAnswer> => {
    await Promise.resolve();
    if (!state.reachable) throw new NetworkError('Network Error');
    if (state.refuse) throw { code: 4090, message: 'The event is closed; answers are no longer taken.' };
    received.push({ eventId, body });
    return { id: `server-${body.id}`, clientId: body.id } as CallAnswer;
  };
  return { received, state, send };
}

let n = 0;
const ids = () => `client-id-${++n}`;
const at = () => new Date('2026-11-21T09:30:00.000Z');

describe('the offline answer queue', () => {
  it('sends an answer at once when online, with its client id and the time it was made', async () => {
    const server = fakeServer();
    const storage = memoryStorage();
    const queue = createAnswerQueue({
      storage,
      send: server.send,
      isOnline: () => true,
      newId: ids,
      now: at,
    });
    const result = await queue.submit('event-1', { optionId: 'safe', note: 'At the assembly point' });
    expect(result.state).toBe('sent');
    expect(server.received).toHaveLength(1);
    expect(server.received[0]!.body).toMatchObject({
      optionId: 'safe',
      note: 'At the assembly point',
      answeredAt: '2026-11-21T09:30:00.000Z',
    });
    expect(server.received[0]!.body.id).toMatch(/^client-id-/);
    expect(storage.data.get(ANSWER_QUEUE_KEY)).toEqual([]);
    expect(queue.store.getState().items).toEqual([]);
  });

  it('keeps an answer made offline on the device and sends it exactly once when back online', async () => {
    const server = fakeServer();
    const storage = memoryStorage();
    let online = false;
    const queue = createAnswerQueue({
      storage,
      send: server.send,
      isOnline: () => online,
      newId: ids,
      now: at,
    });
    expect(await queue.submit('event-1', { optionId: 'need_help' })).toEqual({ state: 'queued' });
    expect(server.received).toHaveLength(0);
    expect(storage.data.get(ANSWER_QUEUE_KEY)).toHaveLength(1);
    expect(queue.store.getState().items[0]!.body.optionId).toBe('need_help');

    online = true;
    await Promise.all([queue.flush(), queue.flush(), queue.flush()]);
    await queue.flush();
    expect(server.received).toHaveLength(1);
    expect(server.received[0]!.body.answeredAt).toBe('2026-11-21T09:30:00.000Z');
    expect(queue.store.getState().items).toEqual([]);
  });

  it('keeps the answer when the connection drops during the send, and sends it later', async () => {
    const server = fakeServer();
    server.state.reachable = false;
    const queue = createAnswerQueue({
      storage: memoryStorage(),
      send: server.send,
      isOnline: () => true,
      newId: ids,
    });
    expect(await queue.submit('event-1', { optionId: 'safe' })).toEqual({ state: 'queued' });
    server.state.reachable = true;
    await queue.flush();
    expect(server.received).toHaveLength(1);
  });

  it('treats a 502 from a proxy as "try again later"', async () => {
    let calls = 0;
    const queue = createAnswerQueue({
      storage: memoryStorage(),
      isOnline: () => true,
      newId: ids,
      send: async () => {
        calls++;
        throw new HttpError(502, 'Bad gateway');
      },
    });
    expect(await queue.submit('event-1', { optionId: 'safe' })).toEqual({ state: 'queued' });
    expect(calls).toBe(1);
    expect(queue.store.getState().items).toHaveLength(1);
  });

  it('tells "no answer" (lost connection, timeout, busy server) from "the server said no"', () => {
    expect(isRetryable(new NetworkError('Network Error'))).toBe(true);
    expect(isRetryable(new NetworkError('timeout of 120000ms exceeded', { timedOut: true }))).toBe(true);
    expect(isRetryable(new HttpError(503, ''))).toBe(true);
    expect(isRetryable(new HttpError(404, ''))).toBe(false);
    expect(isRetryable({ code: 4090, message: 'The event is closed; answers are no longer taken.' })).toBe(
      false,
    );
  });

  it('drops an answer the server refuses and gives the refusal to the one who answered', async () => {
    const server = fakeServer();
    server.state.refuse = true;
    const rejected: unknown[] = [];
    const queue = createAnswerQueue({
      storage: memoryStorage(),
      send: server.send,
      isOnline: () => true,
      newId: ids,
      onRejected: (_item, error) => rejected.push(error),
    });
    await expect(queue.submit('event-1', { optionId: 'safe' })).rejects.toMatchObject({ code: 4090 });
    expect(queue.store.getState().items).toEqual([]);
    // The caller shows its own refusal; the callback is for answers sent later, in the background.
    expect(rejected).toEqual([]);
  });

  it('sends, at start-up, what an earlier session left queued, oldest first', async () => {
    const storage = memoryStorage();
    const offline = createAnswerQueue({
      storage,
      send: fakeServer().send,
      isOnline: () => false,
      newId: ids,
    });
    await offline.submit('event-1', { optionId: 'need_help' });
    await offline.submit('event-1', { optionId: 'safe', note: 'Found my way out' });

    const server = fakeServer();
    const sent: string[] = [];
    const restarted = createAnswerQueue({
      storage,
      send: server.send,
      isOnline: () => true,
      onSent: (item) => sent.push(item.body.optionId),
    });
    await restarted.flush();
    expect(server.received.map((r) => r.body.optionId)).toEqual(['need_help', 'safe']);
    expect(sent).toEqual(['need_help', 'safe']);
    expect(storage.data.get(ANSWER_QUEUE_KEY)).toEqual([]);
  });
});
