import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { VirtualList } from './VirtualList.tsx';

describe('the virtualised list', () => {
  it('renders a named list of the items near the viewport only', () => {
    const items = Array.from({ length: 10_000 }, (_, i) => ({ id: `p${i}`, text: `Post ${i}` }));
    render(
      <VirtualList
        label="Posts"
        height={400}
        items={items}
        itemKey={(item) => item.id}
        renderItem={(item) => <span>{item.text}</span>}
      />,
    );
    // The name is the list's own (on the scrolling div, which has no role, it was an ARIA error).
    const list = screen.getByRole('list', { name: 'Posts' });
    // jsdom lays nothing out, so Virtuoso renders no rows or a first few; never all ten thousand.
    expect(within(list).queryAllByRole('listitem').length).toBeLessThan(100);
    expect(screen.getAllByLabelText('Posts')).toEqual([list]);
  });
});
