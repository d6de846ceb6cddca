import { type ComponentType, createElement, useEffect, useReducer } from 'react';

/** A component whose code loads on its first render, with a way to start loading it earlier. */
export type OnFirstUse<P extends object> = ComponentType<P> & {
  /** Starts loading the code (on hover or focus of what opens it), so that it shows without a wait. */
  preload(): void;
};

/**
 * Like `React.lazy`, for UI that the first screen does not show (a menu, a popover, a dialog): its
 * chunk loads when it is first rendered (or preloaded), and it renders nothing until then. Unlike
 * `React.lazy`, a failed load (the connection is gone) is not thrown to the route's error screen: it
 * is logged, and the next render, or the browser coming back online, tries again. For UI that comes
 * after the first screen by itself (Home's Important strip), which may well be the moment the
 * connection drops.
 */
export function lazyOnFirstUse<P extends object>(
  load: () => Promise<{ default: ComponentType<P> }>,
): OnFirstUse<P> {
  let loaded: ComponentType<P> | null = null;
  let pending: Promise<void> | null = null;
  const start = (): Promise<void> => {
    pending ??= load().then(
      (module) => {
        loaded = module.default;
      },
      (error: unknown) => {
        pending = null;
        throw error;
      },
    );
    return pending;
  };

  // biome-ignore lint/correctness/noComponentHookFactories: called once per chunk at module level, as React.lazy is.
  function LoadedOnFirstUse(props: P) {
    const [, loadedNow] = useReducer((n: number) => n + 1, 0);
    // After every render until the code is here: a load that failed is tried again on the next one.
    useEffect(() => {
      if (loaded) return;
      let mounted = true;
      const retry = () => loadedNow();
      start().then(
        () => mounted && loadedNow(),
        (error: unknown) => {
          console.warn('BTalk: a part of the page could not be loaded', error);
          if (mounted) window.addEventListener('online', retry, { once: true });
        },
      );
      return () => {
        mounted = false;
        window.removeEventListener('online', retry);
      };
    });
    return loaded ? createElement(loaded, props) : null;
  }

  return Object.assign(LoadedOnFirstUse, {
    preload() {
      start().catch(() => {});
    },
  });
}
