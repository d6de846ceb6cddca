import type { ReactionEmoji } from '@btalk/contracts';

// Written out, because importing the contracts at run time would bring zod into the bundle;
// limits.test.ts keeps these equal to packages/contracts.

/** The reaction set of the API (REACTION_EMOJIS). */
export const REACTIONS: readonly ReactionEmoji[] = ['👍', '❤️', '😂', '😮', '😢', '🙏', '🎉', '✅'];
/** Longest post body (MAX_POST_LENGTH). */
export const MAX_POST_LENGTH = 20_000;
/** Longest comment body (MAX_COMMENT_LENGTH). */
export const MAX_COMMENT_LENGTH = 10_000;
