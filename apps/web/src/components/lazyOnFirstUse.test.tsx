import { act, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { lazyOnFirstUse } from './lazyOnFirstUse.tsx';

function Greeting({ name }: { name: string }) {
  return <p>Hello {name}</p>;
}

afterEach(() => vi.restoreAllMocks());

describe('lazyOnFirstUse', () => {
  it('loads the code on the first render only, shows nothing until then, and preloads once', async () => {
    const load = vi.fn(async () => ({ default: Greeting }));
    const Lazy = lazyOnFirstUse(load);
    expect(load).not.toHaveBeenCalled();
    Lazy.preload();
    Lazy.preload();
    expect(load).toHaveBeenCalledTimes(1);
    render(<Lazy name="Somchai" />);
    expect(await screen.findByText('Hello Somchai')).toBeInTheDocument();
    render(<Lazy name="Malee" />);
    // Loaded: the second one shows at once.
    expect(screen.getByText('Hello Malee')).toBeInTheDocument();
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('renders nothing after a failed load, instead of the error screen, and tries again on the next render', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    let fail = true;
    const load = vi.fn(async () => {
      if (fail) throw new TypeError('Failed to fetch dynamically imported module');
      return { default: Greeting };
    });
    const Lazy = lazyOnFirstUse(load);
    const { container, rerender } = render(<Lazy name="Somchai" />);
    await act(async () => {});
    expect(container).toBeEmptyDOMElement();
    expect(warn).toHaveBeenCalledTimes(1);
    fail = false;
    rerender(<Lazy name="Malee" />);
    expect(await screen.findByText('Hello Malee')).toBeInTheDocument();
    expect(load).toHaveBeenCalledTimes(2);
  });

  it('tries a failed load again when the browser comes back online, with no render in between', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    let fail = true;
    const load = vi.fn(async () => {
      if (fail) throw new TypeError('Failed to fetch dynamically imported module');
      return { default: Greeting };
    });
    const Lazy = lazyOnFirstUse(load);
    const { container } = render(<Lazy name="Somchai" />);
    await act(async () => {});
    expect(container).toBeEmptyDOMElement();
    expect(warn).toHaveBeenCalledTimes(1);
    fail = false;
    act(() => {
      window.dispatchEvent(new Event('online'));
    });
    expect(await screen.findByText('Hello Somchai')).toBeInTheDocument();
    expect(load).toHaveBeenCalledTimes(2);
  });

  it('stops listening for the connection once unmounted', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    const load = vi.fn(async (): Promise<{ default: typeof Greeting }> => {
      throw new TypeError('Failed to fetch dynamically imported module');
    });
    const Lazy = lazyOnFirstUse(load);
    const { unmount } = render(<Lazy name="Somchai" />);
    await act(async () => {});
    unmount();
    window.dispatchEvent(new Event('online'));
    await act(async () => {});
    expect(load).toHaveBeenCalledTimes(1);
  });
});
