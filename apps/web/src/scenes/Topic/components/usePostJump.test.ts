import { describe, expect, it } from 'vitest';
import { postNumberFromHash } from './usePostJump.ts';

describe('postNumberFromHash', () => {
  it('reads the post number of a copied link', () => {
    expect(postNumberFromHash('#post-1')).toBe(1);
    expect(postNumberFromHash('#post-100000')).toBe(100000);
  });

  it('ignores other fragments and numbers no post has', () => {
    for (const hash of [
      '',
      '#',
      '#post-',
      '#post-0',
      '#post--3',
      '#post-1.5',
      '#post-abc',
      '#comment-4',
      '#post-1x',
    ]) {
      expect(postNumberFromHash(hash)).toBeNull();
    }
  });
});
