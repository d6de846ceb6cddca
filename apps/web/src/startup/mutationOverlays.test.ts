import { MutationCache, MutationObserver, QueryClient } from '@tanstack/react-query';
import { beforeEach, describe, expect, it } from 'vitest';
import { dialogStore, dialogs } from '../stores/dialogs.ts';
import { mutationOverlayHooks } from './mutationOverlays.ts';

const closed = { ...dialogStore.getState() };

beforeEach(() => {
  dialogStore.setState(closed);
});

/** A mutation whose answer the test gives when it wants. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

function client() {
  return new QueryClient({
    mutationCache: new MutationCache({
      ...mutationOverlayHooks(),
      onError: (error) => dialogs.showError(error),
    }),
  });
}

const spinner = () => dialogStore.getState().show_spinner_dialog;
const loading = () => dialogStore.getState().show_loading_dialog;

describe('progress overlays of long mutations', () => {
  it('shows the spinner from the start of a mutation with meta.overlay until it succeeds', async () => {
    const answer = deferred<string>();
    const observer = new MutationObserver(client(), {
      mutationFn: () => answer.promise,
      meta: { overlay: 'spinner' },
    });
    const running = observer.mutate(undefined);
    await Promise.resolve();
    expect(spinner()).toBe(true);
    expect(loading()).toBe(false);
    answer.resolve('built');
    await expect(running).resolves.toBe('built');
    expect(spinner()).toBe(false);
  });

  it('hides it when the mutation fails, with the error dialog shown', async () => {
    const answer = deferred<string>();
    const observer = new MutationObserver(client(), {
      mutationFn: () => answer.promise,
      meta: { overlay: 'spinner' },
    });
    const running = observer.mutate(undefined);
    await Promise.resolve();
    expect(spinner()).toBe(true);
    answer.reject(new Error('The directory cannot be reached.'));
    await expect(running).rejects.toThrow('The directory cannot be reached.');
    expect(dialogStore.getState()).toMatchObject({
      show_spinner_dialog: false,
      show_error_dialog: true,
      error_dialog_detail: 'The directory cannot be reached.',
    });
  });

  it('keeps an overlay while any of two mutations runs, and shows none for a mutation without meta', async () => {
    const queryClient = client();
    const first = deferred<void>();
    const second = deferred<void>();
    const plain = deferred<void>();
    const a = new MutationObserver(queryClient, {
      mutationFn: () => first.promise,
      meta: { overlay: 'loading' },
    });
    const b = new MutationObserver(queryClient, {
      mutationFn: () => second.promise,
      meta: { overlay: 'loading' },
    });
    const c = new MutationObserver(queryClient, { mutationFn: () => plain.promise });
    const runs = [a.mutate(undefined), b.mutate(undefined)];
    await Promise.resolve();
    expect(loading()).toBe(true);
    first.resolve();
    await runs[0];
    expect(loading()).toBe(true);
    second.resolve();
    await runs[1];
    expect(loading()).toBe(false);
    const quiet = c.mutate(undefined);
    await Promise.resolve();
    expect([spinner(), loading()]).toEqual([false, false]);
    plain.resolve();
    await quiet;
  });

  it('releases a hold once, however often it is released', () => {
    const one = dialogs.hold('spinner');
    const two = dialogs.hold('spinner');
    one();
    one();
    expect(spinner()).toBe(true);
    two();
    expect(spinner()).toBe(false);
  });
});
