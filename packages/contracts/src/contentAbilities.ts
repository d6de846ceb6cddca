import { z } from 'zod';

// What a person may do with a post or a comment: in each post and comment, and in its topic's
// `abilities` for the posts and comments that arrive by realtime event (`posts.ts` re-exports these).

/** What the caller may do with a post. */
export const PostAbilities = z.object({
  /** Change the text (the author). */
  edit: z.boolean(),
  /** Delete it (the author, a topic owner, an admin). */
  delete: z.boolean(),
  /** Pin or unpin it (a topic owner). */
  pin: z.boolean(),
  /** Comment on it. */
  comment: z.boolean(),
  /** React to it. */
  react: z.boolean(),
});
export type PostAbilities = z.infer<typeof PostAbilities>;

/** What the caller may do with a comment. */
export const CommentAbilities = z.object({
  /** Change the text (the author). */
  edit: z.boolean(),
  /** Delete it (the author, a topic owner, an admin). */
  delete: z.boolean(),
  /** React to it. */
  react: z.boolean(),
});
export type CommentAbilities = z.infer<typeof CommentAbilities>;
