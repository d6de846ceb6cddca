import { describe, expect, it } from 'vitest';
import { pageSizeAfter } from './useTopicData.ts';

describe('pageSizeAfter', () => {
  it('grows the pages of a reader who keeps scrolling: 30, 60, then 100 at most', () => {
    expect([0, 1, 2, 3, 10].map(pageSizeAfter)).toEqual([30, 60, 100, 100, 100]);
  });
});
