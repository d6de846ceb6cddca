import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import { useRef } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type Services, ServicesProvider } from '../../services.tsx';
import { SEEN_BATCH_MS, SEEN_DWELL_MS, SeenReporter, useSeenOnScreen } from './seen.ts';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('SeenReporter', () => {
  it('sends each post once, at most one request a second, in batches', async () => {
    const send = vi.fn(async (_ids: string[]) => ({}));
    const reporter = new SeenReporter(send);
    reporter.report('p1');
    reporter.report('p2');
    reporter.report('p1');
    await vi.advanceTimersByTimeAsync(0);
    expect(send.mock.calls).toEqual([[['p1', 'p2']]]);
    reporter.report('p3');
    reporter.report('p2');
    await vi.advanceTimersByTimeAsync(SEEN_BATCH_MS - 1);
    expect(send).toHaveBeenCalledTimes(1);
    reporter.report('p4');
    await vi.advanceTimersByTimeAsync(1);
    expect(send.mock.calls[1]).toEqual([['p3', 'p4']]);
    await vi.advanceTimersByTimeAsync(SEEN_BATCH_MS * 3);
    expect(send).toHaveBeenCalledTimes(2);
  });

  it('sends at most 50 ids a request, the rest a second later', async () => {
    const send = vi.fn(async (_ids: string[]) => ({}));
    const reporter = new SeenReporter(send);
    for (let i = 0; i < 60; i++) reporter.report(`p${i}`);
    await vi.advanceTimersByTimeAsync(0);
    expect(send.mock.calls[0]![0]).toHaveLength(50);
    await vi.advanceTimersByTimeAsync(SEEN_BATCH_MS);
    expect(send.mock.calls[1]![0]).toHaveLength(10);
  });

  it('lets a post be reported again after a request failed', async () => {
    const send = vi.fn<(ids: string[]) => Promise<unknown>>(async () => {
      throw new Error('offline');
    });
    const reporter = new SeenReporter(send);
    reporter.report('p1');
    await vi.advanceTimersByTimeAsync(0);
    expect(reporter.has('p1')).toBe(false);
    send.mockResolvedValue({});
    reporter.report('p1');
    await vi.advanceTimersByTimeAsync(SEEN_BATCH_MS);
    expect(send).toHaveBeenCalledTimes(2);
    expect(reporter.has('p1')).toBe(true);
  });
});

/** A stand-in IntersectionObserver that the test drives by hand. */
class FakeObserver {
  static last: FakeObserver | null = null;
  readonly callback: IntersectionObserverCallback;
  disconnected = false;
  constructor(callback: IntersectionObserverCallback) {
    this.callback = callback;
    FakeObserver.last = this;
  }
  observe() {}
  disconnect() {
    this.disconnected = true;
  }
  /** The element is now this much on the screen (ratio of itself; its height against a 800 px screen). */
  show(ratio: number, height = 200) {
    const entry = {
      isIntersecting: ratio > 0,
      intersectionRatio: ratio,
      intersectionRect: { height: height * ratio },
      rootBounds: { height: 800 },
    } as unknown as IntersectionObserverEntry;
    this.callback([entry], this as unknown as IntersectionObserver);
  }
}

function Watched({ postId }: { postId: string | null }) {
  const ref = useRef<HTMLDivElement>(null);
  useSeenOnScreen(ref, postId);
  return <div ref={ref}>post</div>;
}

function renderWatched(postId: string | null) {
  const seen = vi.fn(async (_ids: string[]) => ({}));
  const services = { api: { announcements: { seen } } } as unknown as Services;
  render(
    <QueryClientProvider client={new QueryClient()}>
      <ServicesProvider services={services}>
        <Watched postId={postId} />
      </ServicesProvider>
    </QueryClientProvider>,
  );
  return seen;
}

describe('useSeenOnScreen', () => {
  beforeEach(() => {
    FakeObserver.last = null;
    vi.stubGlobal('IntersectionObserver', FakeObserver);
  });

  it('reports a post half on the screen for a second, not one that scrolled past', async () => {
    const seen = renderWatched('p1');
    const observer = FakeObserver.last!;
    observer.show(0.6);
    await vi.advanceTimersByTimeAsync(SEEN_DWELL_MS - 100);
    observer.show(0.2);
    await vi.advanceTimersByTimeAsync(SEEN_DWELL_MS * 2);
    expect(seen).not.toHaveBeenCalled();
    observer.show(0.5);
    await vi.advanceTimersByTimeAsync(SEEN_DWELL_MS);
    // The report goes out with the next batch (at once: nothing was sent in the last second).
    await vi.runOnlyPendingTimersAsync();
    expect(seen).toHaveBeenCalledWith(['p1']);
    expect(observer.disconnected).toBe(true);
  });

  it('counts a post taller than the screen once it fills half of it', async () => {
    const seen = renderWatched('p2');
    FakeObserver.last!.show(0.3, 2000);
    await vi.advanceTimersByTimeAsync(SEEN_DWELL_MS);
    await vi.runOnlyPendingTimersAsync();
    expect(seen).toHaveBeenCalledWith(['p2']);
  });

  it('watches nothing when the reader is not asked', () => {
    renderWatched(null);
    expect(FakeObserver.last).toBeNull();
  });
});
