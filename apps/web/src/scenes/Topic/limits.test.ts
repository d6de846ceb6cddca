import { MAX_COMMENT_LENGTH, MAX_POST_LENGTH, REACTION_EMOJIS } from '@btalk/contracts';
import { describe, expect, it } from 'vitest';
import * as limits from './limits.ts';

describe('the topic screen limits', () => {
  it('are the contracts’ reaction set and text lengths', () => {
    expect(limits.REACTIONS).toEqual(REACTION_EMOJIS);
    expect(limits.MAX_POST_LENGTH).toBe(MAX_POST_LENGTH);
    expect(limits.MAX_COMMENT_LENGTH).toBe(MAX_COMMENT_LENGTH);
  });
});
