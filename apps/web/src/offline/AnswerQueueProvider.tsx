import type { CallEventSummary } from '@btalk/contracts';
import { type QueryClient, useQueryClient } from '@tanstack/react-query';
import { createContext, type ReactNode, useContext, useEffect, useMemo } from 'react';
import { callTreeKeys } from '../api/queryKeys.ts';
import { useServices } from '../services.tsx';
import { useStore } from '../stores/createStore.ts';
import { dialogs } from '../stores/dialogs.ts';
import { type AnswerQueue, createAnswerQueue, type QueuedAnswer, type QueueStorage } from './answerQueue.ts';

/**
 * Brings the call-tree data up to date once a queued answer reached the server. At start-up the
 * first fetch of the pending list can leave before the answer arrives; TanStack Query hands a
 * refetch that fetch's (stale) result, so it is cancelled, the event is dropped from the list at
 * once, and everything is asked again.
 */
async function answerReached(queryClient: QueryClient, eventId: string): Promise<void> {
  await queryClient.cancelQueries({ queryKey: callTreeKeys.pending() });
  queryClient.setQueryData<CallEventSummary[]>(callTreeKeys.pending(), (old) =>
    old?.filter((event) => event.id !== eventId),
  );
  await queryClient.invalidateQueries({ queryKey: callTreeKeys.all });
}

const AnswerQueueContext = createContext<AnswerQueue | null>(null);

/**
 * Owns the offline answer queue of the screens inside it: sends what is waiting when the app starts
 * and whenever the connection returns, and refreshes the call-tree data once an answer got through.
 */
export function AnswerQueueProvider({ children, storage }: { children: ReactNode; storage?: QueueStorage }) {
  const { api } = useServices();
  const queryClient = useQueryClient();
  const queue = useMemo(
    () =>
      createAnswerQueue({
        ...(storage ? { storage } : {}),
        send: (eventId, body) => api.calltree.answer(eventId, body),
        onSent: (item) => void answerReached(queryClient, item.eventId),
        onRejected: (_item, error) => dialogs.showError(error),
      }),
    [api, queryClient, storage],
  );
  useEffect(() => {
    const flush = () => void queue.flush();
    flush();
    window.addEventListener('online', flush);
    return () => window.removeEventListener('online', flush);
  }, [queue]);
  return <AnswerQueueContext.Provider value={queue}>{children}</AnswerQueueContext.Provider>;
}

/** The offline answer queue. */
export function useAnswerQueue(): AnswerQueue {
  const queue = useContext(AnswerQueueContext);
  if (!queue)
    throw new Error('useAnswerQueue() is used outside <AnswerQueueProvider>: render it in DefaultLayout.');
  return queue;
}

const none: QueuedAnswer[] = [];

/** The answers to one event still waiting on this device, newest last. */
export function useQueuedAnswers(eventId: string): QueuedAnswer[] {
  const queue = useAnswerQueue();
  const items = useStore(queue.store, (s) => s.items);
  return useMemo(() => {
    const mine = items.filter((i) => i.eventId === eventId);
    return mine.length ? mine : none;
  }, [items, eventId]);
}
