import { describe, expect, it } from 'vitest';
import { mentionAt, mentionToken } from './MentionMenu.tsx';

describe('composer mentions', () => {
  it('finds the @word before the caret', () => {
    expect(mentionAt('hello @ka', 9)).toEqual({ start: 6, query: 'ka' });
    expect(mentionAt('@', 1)).toEqual({ start: 0, query: '' });
    expect(mentionAt('mail a@b', 8)).toBeNull();
    expect(mentionAt('hello @ka there', 15)).toBeNull();
  });

  it('writes the token the API reads', () => {
    expect(mentionToken({ id: 'u1', displayName: 'Kanya [R]' })).toBe('@[Kanya R](user:u1)');
  });
});
