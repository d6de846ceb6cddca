// Lengths, counts and fixed sets of the API's requests. Imports nothing (no zod): the web app
// takes them from `@btalk/contracts/constants` for its inputs, the schemas use them to validate.

/** The quick reactions, one click away under a post; any other emoji comes from the full picker. */
export const REACTION_EMOJIS = ['👍', '❤️', '😂', '😮', '😢', '🙏', '🎉', '✅'] as const;
/** Most different emojis on one post or comment (each may be given by any number of people). */
export const MAX_DISTINCT_REACTIONS = 50;
/** Longest reaction emoji, in UTF-16 code units (a family with skin tones is about 35). */
export const MAX_REACTION_EMOJI_LENGTH = 64;

/** Longest post body, in characters. */
export const MAX_POST_LENGTH = 20_000;
/** Longest comment body, in characters. */
export const MAX_COMMENT_LENGTH = 10_000;

/** Longest topic title, in characters. */
export const MAX_TOPIC_TITLE_LENGTH = 200;
/** Longest topic description, in characters. */
export const MAX_TOPIC_DESCRIPTION_LENGTH = 4000;
/** Longest search text of topics and posts, in characters. */
export const MAX_SEARCH_LENGTH = 200;

/** Longest title of a version of the terms of use (one language), in characters. */
export const MAX_TERMS_TITLE_LENGTH = 200;
/** Longest body of a version of the terms of use (one language), in characters. */
export const MAX_TERMS_BODY_LENGTH = 50_000;

/** Longest page path a page view reports, in characters. */
export const MAX_PAGE_VIEW_PATH_LENGTH = 512;

/** Longest call tree name, in characters. */
export const MAX_CALL_TREE_NAME_LENGTH = 120;
/** Longest call event title, in characters. */
export const MAX_CALL_EVENT_TITLE_LENGTH = 160;
/** Longest call event message, in characters. */
export const MAX_CALL_EVENT_MESSAGE_LENGTH = 4000;
/** Fewest answer options of a call event. */
export const MIN_CALL_EVENT_OPTIONS = 2;
/** Most answer options of a call event. */
export const MAX_CALL_EVENT_OPTIONS = 6;
/** Longest label of a call event's answer option, in characters. */
export const MAX_CALL_OPTION_LABEL_LENGTH = 60;
/** Shortest escalation delay of a call event, in minutes. */
export const MIN_ESCALATION_DELAY_MINUTES = 1;
/** Longest escalation delay of a call event, in minutes (one day). */
export const MAX_ESCALATION_DELAY_MINUTES = 1440;
/** The escalation delay an event has unless its starter says otherwise. */
export const DEFAULT_ESCALATION_DELAY_MINUTES = 15;
/** Longest note of a call answer, in characters. */
export const MAX_CALL_ANSWER_NOTE_LENGTH = 1000;
/** Longest location of a call answer, in characters. */
export const MAX_CALL_ANSWER_LOCATION_LENGTH = 200;
/** Most people in a direct conversation, its starter included. */
export const MAX_CONVERSATION_PEOPLE = 8;
