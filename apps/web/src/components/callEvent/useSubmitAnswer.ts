import type { CallAnswerRequest } from '@btalk/contracts';
import { useState } from 'react';
import { type SubmitResult, useAnswerQueue } from '../../offline/index.ts';
import { dialogs } from '../../stores/dialogs.ts';

/** Answers an event through the offline queue; the server's refusal opens the error dialog. */
export function useSubmitAnswer(eventId: string) {
  const queue = useAnswerQueue();
  const [busy, setBusy] = useState(false);
  const submit = async (
    request: Omit<CallAnswerRequest, 'id' | 'answeredAt'>,
  ): Promise<SubmitResult | undefined> => {
    setBusy(true);
    try {
      return await queue.submit(eventId, request);
    } catch (error) {
      dialogs.showError(error);
      return undefined;
    } finally {
      setBusy(false);
    }
  };
  return { submit, busy };
}
