import type { CallAnswer, CallAnswerRequest, CallEventSummary } from '@btalk/contracts';
import { QueryClient, QueryClientProvider, useQuery } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { callTreeKeys } from '../api/queryKeys.ts';
import { type Services, ServicesProvider, useServices } from '../services.tsx';
import { AnswerQueueProvider } from './AnswerQueueProvider.tsx';
import { ANSWER_QUEUE_KEY, type QueuedAnswer, type QueueStorage } from './answerQueue.ts';

function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

const event = { id: 'event-1', title: 'Power cut, building C' } as CallEventSummary;

function PendingList() {
  const { api } = useServices();
  const pending = useQuery({ queryKey: callTreeKeys.pending(), queryFn: () => api.calltree.pending() });
  if (!pending.data) return <p>loading</p>;
  return <p>{pending.data.length ? pending.data.map((e) => e.title).join(', ') : 'nothing waiting'}</p>;
}

// The pending list's fetches and the answers' posts are played by hand to force their order.
const server = {
  pendingCalls: [] as Array<ReturnType<typeof deferred<CallEventSummary[]>>>,
  answers: [] as CallAnswerRequest[],
  pending() {
    const call = deferred<CallEventSummary[]>();
    server.pendingCalls.push(call);
    return call.promise;
  },
};

describe('AnswerQueueProvider', () => {
  it('does not keep a pending list fetched before a queued answer reached the server', async () => {
    const item: QueuedAnswer = {
      eventId: event.id,
      body: { id: 'client-1', optionId: 'safe', answeredAt: '2026-11-21T09:30:00.000Z' },
    };
    const data = new Map<string, QueuedAnswer[]>([[ANSWER_QUEUE_KEY, [item]]]);
    const storage: QueueStorage = {
      get: async (key) => data.get(key),
      set: async (key, value) => void data.set(key, value),
    };
    const answerSent = deferred<CallAnswer>();
    const services = {
      api: {
        calltree: {
          pending: () => server.pending(),
          answer: (_eventId: string, body: CallAnswerRequest) => {
            server.answers.push(body);
            return answerSent.promise;
          },
        },
      },
    } as unknown as Services;
    const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    render(
      <QueryClientProvider client={queryClient}>
        <ServicesProvider services={services}>
          <AnswerQueueProvider storage={storage}>
            <PendingList />
          </AnswerQueueProvider>
        </ServicesProvider>
      </QueryClientProvider>,
    );
    // Start-up: the pending list is asked for while the queued answer is on its way.
    await waitFor(() => expect(server.pendingCalls).toHaveLength(1));
    await waitFor(() => expect(server.answers).toEqual([item.body]));
    answerSent.resolve({ id: 'answer-1', clientId: 'client-1' } as CallAnswer);
    // The server read the list before the answer arrived: it still names the event.
    server.pendingCalls[0]!.resolve([event]);
    await waitFor(() => expect(server.pendingCalls).toHaveLength(2));
    server.pendingCalls[1]!.resolve([]);
    expect(await screen.findByText('nothing waiting')).toBeInTheDocument();
    expect(data.get(ANSWER_QUEUE_KEY)).toEqual([]);
  });
});
