import type { Mutation, MutationCacheConfig } from '@tanstack/react-query';
import { dialogs, type ProgressOverlay } from '../stores/dialogs.ts';

/**
 * A mutation's `meta.overlay`: the global progress overlay it shows while it runs (SPEC.md's spinner
 * dialog, "Please wait a moment...", or the loading dialog), for the long operations: building a call
 * tree, importing a CSV, starting an event, comparing a tree with the directory.
 */
export interface OverlayMeta {
  overlay?: ProgressOverlay;
}

/**
 * The mutation cache's hooks that show a mutation's `meta.overlay` from its start until it settles,
 * success or failure (a failure's error dialog is the cache's `onError`, which runs first).
 */
export function mutationOverlayHooks(): Pick<MutationCacheConfig, 'onMutate' | 'onSettled'> {
  const releases = new WeakMap<Mutation<unknown, unknown, unknown>, () => void>();
  return {
    onMutate: (_variables, mutation) => {
      const overlay = (mutation.meta as OverlayMeta | undefined)?.overlay;
      if (overlay) releases.set(mutation, dialogs.hold(overlay));
    },
    onSettled: (_data, _error, _variables, _result, mutation) => {
      releases.get(mutation)?.();
      releases.delete(mutation);
    },
  };
}
