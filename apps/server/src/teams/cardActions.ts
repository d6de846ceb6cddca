import type { CallEventOption } from '@btalk/contracts';
import type { AdaptiveCard } from '@microsoft/teams.cards';
import { z } from 'zod';
import { acknowledgeAnnouncement } from '../commands/announcementAcknowledger.ts';
import { answerCallEvent } from '../commands/callResponseRecorder.ts';
import { bellRinger } from '../commands/postEditor.ts';
import { transact } from '../commands/transact.ts';
import type { AppContext } from '../context.ts';
import type { UserRow } from '../db/schema.ts';
import { AppError } from '../http/errors.ts';
import { loadSettings } from '../notifications/settings.ts';
import { titleOf } from '../notifications/topicNotices.ts';
import { requireVisiblePost } from '../policies/post.ts';
import { acknowledgedCard, answeredCard, CardVerb, type Locale, noticeCard } from './cards.ts';
import { tabDeepLink } from './deepLinks.ts';

/** What a card's `Action.Execute` sends: its verb and data. */
export interface CardAction {
  verb: string;
  data: unknown;
}

/** `calltree.answer`: the person's own answer; `answerId` is made per card, so two presses record one. */
const AnswerData = z.object({
  eventId: z.string().min(1).max(64),
  optionId: z.string().min(1).max(40),
  answerId: z.string().regex(/^[\w-]{8,64}$/),
});

/** `post.mute`: the person's bell on the post off. */
const MuteData = z.object({ postId: z.string().min(1).max(64) });

/** `announcement.acknowledge`: the person acknowledges an important post. */
const AcknowledgeData = z.object({ postId: z.string().min(1).max(64) });

/** The time of day an answer was made, in the person's time zone (their quiet hours' zone). */
function timeOfDay(iso: string, timeZone: string, locale: Locale): string {
  try {
    return new Intl.DateTimeFormat(locale === 'th' ? 'th-TH' : 'en-GB', {
      timeZone,
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    }).format(new Date(iso));
  } catch {
    return iso.slice(11, 16);
  }
}

async function answer(ctx: AppContext, user: UserRow, locale: Locale, data: z.infer<typeof AnswerData>) {
  const openUrl = tabDeepLink(ctx.config, `/calltree/event/${encodeURIComponent(data.eventId)}`);
  try {
    // The same checks and command as `POST /api/calltree/events/:eventId/answers` for one's own answer.
    const { event, recorded } = await answerCallEvent(ctx, user, data.eventId, user.id, {
      id: data.answerId,
      optionId: data.optionId,
    });
    const options = JSON.parse(event.options) as CallEventOption[];
    const label = options.find((o) => o.id === recorded.answer.option_id)?.label ?? recorded.answer.option_id;
    const { quietHours } = await loadSettings(ctx.db.kysely, user.id);
    return answeredCard({
      locale,
      eventTitle: event.title,
      optionLabel: label,
      time: timeOfDay(recorded.answer.answered_at, quietHours.timeZone, locale),
      openUrl,
    });
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    // Nothing was written (the transaction rolled back); the card says why.
    const say =
      error.kind === 'notFound' || error.kind === 'forbidden'
        ? 'notTargeted'
        : error.kind === 'conflict'
          ? 'closed'
          : 'notUnderstood';
    return noticeCard({ locale, say, openUrl });
  }
}

async function mute(ctx: AppContext, user: UserRow, locale: Locale, data: z.infer<typeof MuteData>) {
  try {
    const post = await transact(ctx, async (trx) => {
      const { post } = await requireVisiblePost(trx, user, data.postId);
      await bellRinger(trx, user, post, 'off');
      return post;
    });
    const openUrl = tabDeepLink(
      ctx.config,
      `/topics/${encodeURIComponent(post.topic_id)}#post-${Number(post.number)}`,
    );
    return noticeCard({ locale, say: 'muted', openUrl });
  } catch (error) {
    if (error instanceof AppError && (error.kind === 'notFound' || error.kind === 'forbidden')) {
      return noticeCard({ locale, say: 'postGone' });
    }
    throw error;
  }
}

async function acknowledge(
  ctx: AppContext,
  user: UserRow,
  locale: Locale,
  data: z.infer<typeof AcknowledgeData>,
) {
  try {
    // The same command as `POST /api/posts/:postId/acknowledgement`; a second press answers the same time.
    const { acknowledgedAt, path, topicTitle } = await transact(ctx, async (trx) => {
      // The card's words first: the command's writes end the transaction (their locks until commit).
      const post = await trx
        .selectFrom('posts')
        .select(['topic_id', 'number'])
        .where('id', '=', data.postId)
        .executeTakeFirst();
      const topic = post
        ? await trx.selectFrom('topics').selectAll().where('id', '=', post.topic_id).executeTakeFirst()
        : undefined;
      const topicTitle = topic ? await titleOf(trx, topic) : '';
      // 404 unless the person sees the post (so it and its topic were found above).
      const { acknowledgedAt } = await acknowledgeAnnouncement(trx, user, data.postId);
      const path = post ? `/topics/${encodeURIComponent(post.topic_id)}#post-${Number(post.number)}` : '/';
      return { acknowledgedAt, path, topicTitle };
    });
    const openUrl = tabDeepLink(ctx.config, path);
    const { quietHours } = await loadSettings(ctx.db.kysely, user.id);
    return acknowledgedCard({
      locale,
      topicTitle,
      time: timeOfDay(acknowledgedAt, quietHours.timeZone, locale),
      openUrl,
    });
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    // Nothing was written (the transaction rolled back); the card says why.
    if (error.kind === 'notFound') return noticeCard({ locale, say: 'postGone' });
    // The command refuses the post's own author: the readers acknowledge it.
    if (error.kind === 'forbidden') return noticeCard({ locale, say: 'ownAnnouncement' });
    if (error.kind === 'conflict') return noticeCard({ locale, say: 'notAnnouncement' });
    return noticeCard({ locale, say: 'notUnderstood' });
  }
}

/**
 * Runs an Adaptive Card action a person pressed in Teams (the bot endpoint has matched them to
 * `user`) and answers the card that replaces the one pressed. Never throws for what people may send:
 * data that does not fit the verb answers a card that says the action is not understood.
 */
export async function handleCardAction(
  ctx: AppContext,
  user: UserRow,
  action: CardAction,
): Promise<AdaptiveCard> {
  const locale: Locale = user.locale === 'th' ? 'th' : 'en';
  if (action.verb === CardVerb.answer) {
    const data = AnswerData.safeParse(action.data);
    if (data.success) return answer(ctx, user, locale, data.data);
  } else if (action.verb === CardVerb.mute) {
    const data = MuteData.safeParse(action.data);
    if (data.success) return mute(ctx, user, locale, data.data);
  } else if (action.verb === CardVerb.acknowledge) {
    const data = AcknowledgeData.safeParse(action.data);
    if (data.success) return acknowledge(ctx, user, locale, data.data);
  }
  return noticeCard({ locale, say: 'notUnderstood' });
}
