import { type RefObject, useEffect } from 'react';
import type { Api } from '../../api/index.ts';
import { useServices } from '../../services.tsx';

/** How long an important post must stay on the screen (half of it at least) to count as seen. */
export const SEEN_DWELL_MS = 1000;
/** At most one "seen" request per this many milliseconds. */
export const SEEN_BATCH_MS = 1000;
/** The most ids one request may carry (the contract's bound). */
const MAX_IDS = 50;

/**
 * Collects the important posts that were on the screen and tells the server in batches: each post
 * once per session (page load), at most one request a second. A request that fails lets the posts be
 * reported again the next time they are on the screen.
 */
export class SeenReporter {
  readonly #send: (postIds: string[]) => Promise<unknown>;
  readonly #sent = new Set<string>();
  readonly #queue = new Set<string>();
  #timer: ReturnType<typeof setTimeout> | null = null;
  #lastSentAt = Number.NEGATIVE_INFINITY;

  constructor(send: (postIds: string[]) => Promise<unknown>) {
    this.#send = send;
  }

  /** Whether the post was already reported (or is about to be). */
  has(postId: string): boolean {
    return this.#sent.has(postId) || this.#queue.has(postId);
  }

  /** The post was on the screen long enough. */
  report(postId: string): void {
    if (this.has(postId)) return;
    this.#queue.add(postId);
    this.#schedule();
  }

  #schedule(): void {
    if (this.#timer !== null || this.#queue.size === 0) return;
    const wait = Math.max(0, this.#lastSentAt + SEEN_BATCH_MS - Date.now());
    this.#timer = setTimeout(() => this.#flush(), wait);
  }

  #flush(): void {
    this.#timer = null;
    const ids = [...this.#queue].slice(0, MAX_IDS);
    for (const id of ids) {
      this.#queue.delete(id);
      this.#sent.add(id);
    }
    this.#lastSentAt = Date.now();
    this.#send(ids).catch(() => {
      for (const id of ids) this.#sent.delete(id);
    });
    this.#schedule();
  }
}

const reporters = new WeakMap<Api, SeenReporter>();

/** The session's one reporter for this API. */
export function seenReporterFor(api: Api): SeenReporter {
  let reporter = reporters.get(api);
  if (!reporter) {
    reporter = new SeenReporter((ids) => api.announcements.seen(ids));
    reporters.set(api, reporter);
  }
  return reporter;
}

const THRESHOLDS = Array.from({ length: 11 }, (_, i) => i / 10);

/**
 * Reports `postId` as seen once the element has been on the screen for about a second: at least half
 * of it visible, or (a post taller than the screen) filling at least half of the screen, while the
 * page is visible. Null: nothing to report (not asked, or acknowledged already).
 */
export function useSeenOnScreen(ref: RefObject<Element | null>, postId: string | null): void {
  const { api } = useServices();
  useEffect(() => {
    const element = ref.current;
    if (!postId || !element || typeof IntersectionObserver === 'undefined') return;
    const reporter = seenReporterFor(api);
    if (reporter.has(postId)) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const observer = new IntersectionObserver(
      (entries) => {
        const entry = entries[entries.length - 1];
        if (!entry) return;
        const screen = entry.rootBounds?.height ?? window.innerHeight;
        const onScreen =
          entry.isIntersecting &&
          (entry.intersectionRatio >= 0.5 || entry.intersectionRect.height >= screen / 2) &&
          document.visibilityState !== 'hidden';
        if (onScreen) {
          timer ??= setTimeout(() => {
            reporter.report(postId);
            observer.disconnect();
          }, SEEN_DWELL_MS);
        } else if (timer !== undefined) {
          clearTimeout(timer);
          timer = undefined;
        }
      },
      { threshold: THRESHOLDS },
    );
    observer.observe(element);
    return () => {
      observer.disconnect();
      if (timer !== undefined) clearTimeout(timer);
    };
  }, [api, ref, postId]);
}
