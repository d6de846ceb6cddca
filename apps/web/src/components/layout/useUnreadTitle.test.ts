import { renderHook } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { titleWithUnread, useUnreadTitle } from './useUnreadTitle.ts';

describe('the unread count in the tab title', () => {
  it('prefixes the count, replaces an old one, and caps it', () => {
    expect(titleWithUnread('BTalk', 3)).toBe('(3) BTalk');
    expect(titleWithUnread('(3) BTalk', 4)).toBe('(4) BTalk');
    expect(titleWithUnread('(3) BTalk', 0)).toBe('BTalk');
    expect(titleWithUnread('Home · BTalk', 150)).toBe('(99+) Home · BTalk');
  });

  it('keeps the count in front of titles the screens set later, and takes it away at 0', async () => {
    document.title = 'Home · BTalk';
    const { rerender, unmount } = renderHook(({ n }) => useUnreadTitle(n), { initialProps: { n: 2 } });
    expect(document.title).toBe('(2) Home · BTalk');
    document.title = 'Safety drills · BTalk';
    await new Promise((r) => setTimeout(r, 0));
    expect(document.title).toBe('(2) Safety drills · BTalk');
    rerender({ n: 0 });
    expect(document.title).toBe('Safety drills · BTalk');
    rerender({ n: 1 });
    unmount();
    expect(document.title).toBe('Safety drills · BTalk');
  });
});
