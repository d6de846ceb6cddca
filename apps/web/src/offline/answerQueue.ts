import type { CallAnswer, CallAnswerRequest } from '@btalk/contracts';
import { get, set } from 'idb-keyval';
import { HttpError, isErrorEnvelope } from '../api/errors.ts';
import { createStore, type Store } from '../stores/createStore.ts';

/** An answer kept on the device until the server has it. */
export interface QueuedAnswer {
  /** The event answered. */
  eventId: string;
  /** The request as it will be sent: its client-made `id` makes a repeat harmless, `answeredAt` keeps when it was made. */
  body: CallAnswerRequest & { id: string; answeredAt: string };
}

/** Where queued answers are kept: IndexedDB in the browser, memory in tests (jsdom has no IndexedDB). */
export interface QueueStorage {
  get(key: string): Promise<QueuedAnswer[] | undefined>;
  set(key: string, value: QueuedAnswer[]): Promise<void>;
}

/** The browser's storage for queued answers: IndexedDB through idb-keyval. */
export const indexedDbQueueStorage: QueueStorage = {
  get: (key) => get<QueuedAnswer[]>(key),
  set: (key, value) => set(key, value),
};

/** The IndexedDB key holding the queue. */
export const ANSWER_QUEUE_KEY = 'btalk-calltree-answer-queue';

/** What became of an answer handed to the queue. */
export type SubmitResult = { state: 'sent'; answer: CallAnswer } | { state: 'queued' };

/** The offline answer queue: answers are saved on the device first, then sent, and re-sent until the server has them. */
export interface AnswerQueue {
  /** The answers still waiting, for the screens to show as "queued". */
  store: Store<{ items: QueuedAnswer[] }>;
  /** Saves an answer and tries to send it; rejects with the server's refusal (then nothing stays queued). */
  submit(eventId: string, request: Omit<CallAnswerRequest, 'id' | 'answeredAt'>): Promise<SubmitResult>;
  /** Sends every waiting answer, oldest first (at start-up and when the connection returns). */
  flush(): Promise<void>;
}

/** Options of the queue. */
export interface AnswerQueueOptions {
  storage?: QueueStorage;
  /** Sends one answer to the server. */
  send(eventId: string, body: CallAnswerRequest): Promise<CallAnswer>;
  /** Whether the browser says it is online (skips a send that cannot succeed). */
  isOnline?: () => boolean;
  /** Called after a queued answer reached the server. */
  onSent?(item: QueuedAnswer, answer: CallAnswer): void;
  /** Called when the server refused a queued answer (e.g. the event was closed meanwhile). */
  onRejected?(item: QueuedAnswer, error: unknown): void;
  /** Makes client ids; crypto.randomUUID by default. */
  newId?: () => string;
  /** The device's clock. */
  now?: () => Date;
}

/** Whether a failure means "try again later" (no answer from the server) rather than "the server said no". */
export function isRetryable(error: unknown): boolean {
  if (isErrorEnvelope(error)) return false;
  if (error instanceof HttpError) return error.status >= 500 || error.status === 408 || error.status === 429;
  // A `NetworkError` (no answer at all, or none in time), or anything unexpected: the answer stays on the device.
  return true;
}

/** Creates the queue; call `flush()` at start-up and on the `online` event. */
export function createAnswerQueue(options: AnswerQueueOptions): AnswerQueue {
  const storage = options.storage ?? indexedDbQueueStorage;
  const isOnline = options.isOnline ?? (() => navigator.onLine);
  const newId = options.newId ?? (() => crypto.randomUUID());
  const now = options.now ?? (() => new Date());
  const store = createStore<{ items: QueuedAnswer[] }>({ items: [] });
  // One change of the stored list at a time, and one flush at a time, so nothing is sent twice at once.
  let chain: Promise<unknown> = Promise.resolve();
  const serial = <T>(work: () => Promise<T>): Promise<T> => {
    const next = chain.then(work, work);
    chain = next.catch(() => undefined);
    return next;
  };

  const read = async () => (await storage.get(ANSWER_QUEUE_KEY)) ?? [];
  const write = async (items: QueuedAnswer[]) => {
    await storage.set(ANSWER_QUEUE_KEY, items);
    store.setState({ items });
  };

  /** Sends the waiting answers; what the server said is returned by client id (`own`'s refusal is the caller's to show). */
  const sendAll = (own?: string) =>
    serial(async () => {
      const outcome = new Map<string, { answer?: CallAnswer; error?: unknown }>();
      let items = await read();
      store.setState({ items });
      if (!isOnline()) return outcome;
      for (const item of [...items]) {
        try {
          const answer = await options.send(item.eventId, item.body);
          outcome.set(item.body.id, { answer });
          options.onSent?.(item, answer);
        } catch (error) {
          if (isRetryable(error)) break;
          outcome.set(item.body.id, { error });
          if (item.body.id !== own) options.onRejected?.(item, error);
        }
        items = (await read()).filter((i) => i.body.id !== item.body.id);
        await write(items);
      }
      return outcome;
    });

  return {
    store,
    async submit(eventId, request) {
      const item: QueuedAnswer = {
        eventId,
        body: { ...request, id: newId(), answeredAt: now().toISOString() },
      };
      // Saved before it is sent: a lost connection or a closed tab still leaves it on the device.
      await serial(async () => write([...(await read()), item]));
      const outcome = (await sendAll(item.body.id)).get(item.body.id);
      if (outcome?.answer) return { state: 'sent', answer: outcome.answer };
      if (outcome && 'error' in outcome) throw outcome.error;
      return { state: 'queued' };
    },
    async flush() {
      await sendAll();
    },
  };
}
