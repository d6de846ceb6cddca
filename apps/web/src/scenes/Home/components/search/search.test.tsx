import type { SearchResult } from '@btalk/contracts';
import { render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Highlighted } from '../../../../components/Highlighted.tsx';
import { hitLink } from './SearchHit.tsx';
import { filtersFrom, isSearching, localDayEdge, searchRequest, withFilters } from './searchParams.ts';

describe('Highlighted', () => {
  it('marks the ranges and keeps the rest as text, never as HTML', () => {
    const { container } = render(
      <Highlighted
        text="<b>Re</b>: งบประมาณ ประจำปี"
        ranges={[
          { start: 11, end: 19 },
          { start: 3, end: 5 },
          { start: 99, end: 120 },
        ]}
      />,
    );
    expect(container.textContent).toBe('<b>Re</b>: งบประมาณ ประจำปี');
    expect(container.querySelector('b')).toBeNull();
    // Out of order and out of the text: ignored.
    expect([...container.querySelectorAll('mark')].map((m) => m.textContent)).toEqual(['งบประมาณ']);
  });
});

describe('hitLink', () => {
  const hit = (change: Partial<SearchResult>): SearchResult => ({
    kind: 'post',
    topicId: 't1',
    topicTitle: 'T',
    topicArchived: false,
    postId: 'p1',
    postNumber: 1500,
    commentId: null,
    author: null,
    hasFile: false,
    snippet: '',
    highlights: [],
    createdAt: '2026-11-25T00:00:00.000Z',
    ...change,
  });

  it('opens the topic at the post, and a comment with its comments open', () => {
    expect(hitLink(hit({}))).toBe('/topics/t1#post-1500');
    expect(hitLink(hit({ kind: 'comment', commentId: 'c 9' }))).toBe('/topics/t1?comment=c%209#post-1500');
    expect(hitLink(hit({ kind: 'topic', postId: null, postNumber: null }))).toBe('/topics/t1');
  });
});

describe('search address', () => {
  it('reads and writes the filters, and asks the API for the reader’s days', () => {
    const params = new URLSearchParams('q=pump&author=u1&file=1&from=2026-11-01&to=nope');
    expect(isSearching(params)).toBe(true);
    expect(isSearching(new URLSearchParams('q=%20'))).toBe(false);
    const filters = filtersFrom(params);
    expect(filters).toEqual({ topic: null, author: 'u1', hasFile: true, from: '2026-11-01', to: null });
    expect(withFilters(params, { ...filters, author: null, topic: 't2' }).toString()).toBe(
      'q=pump&file=1&from=2026-11-01&topic=t2',
    );
    expect(searchRequest('pump', filters)).toEqual({
      q: 'pump',
      author: 'u1',
      hasFile: 'true',
      from: new Date(2026, 10, 1).toISOString(),
    });
    expect(new Date(localDayEdge('2026-11-25', 'to')).getTime()).toBe(new Date(2026, 10, 26).getTime() - 1);
  });
});
