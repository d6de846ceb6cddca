import { z } from 'zod';
import { MAX_CONVERSATION_PEOPLE } from './limits.ts';

/**
 * `POST /api/conversations`: the direct conversation of the caller and these people, made the first
 * time and answered as it is every time after (the same people in any order: the same one). The
 * answer is a `Topic` whose visibility is `direct`.
 */
export const CreateConversationRequest = z.object({
  /**
   * The other participants' user ids, 1 to 7 different active people, as the people picker gives
   * them; the caller is in the conversation without being named here.
   */
  userIds: z
    .array(z.string().min(1).max(64))
    .min(1, { message: 'name at least one other person' })
    .max(MAX_CONVERSATION_PEOPLE - 1, {
      message: `a conversation has at most ${MAX_CONVERSATION_PEOPLE} people: name at most ${MAX_CONVERSATION_PEOPLE - 1} others`,
    })
    .refine((ids) => new Set(ids).size === ids.length, { message: 'name each person once' }),
});
export type CreateConversationRequest = z.infer<typeof CreateConversationRequest>;
