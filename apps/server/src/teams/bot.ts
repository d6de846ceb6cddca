import type { AdaptiveCardActionResponse } from '@microsoft/teams.api';
import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { transact } from '../commands/transact.ts';
import type { AppContext } from '../context.ts';
import { AppError } from '../http/errors.ts';
import { perAddress } from '../http/rateLimits.ts';
import { type ActivityTokenClaims, ActivityTokenVerifier, sameServiceUrl } from './activityTokens.ts';
import { handleCardAction } from './cardActions.ts';
import { BotConnector } from './connector.ts';
import { disconnect, saveConversation } from './conversations.ts';
import { botLocaleOf, helpCard, unknownPersonCard } from './helpCard.ts';
import { personForTeamsUser } from './people.ts';

/** The bot's messaging endpoint (the Azure Bot's "Messaging endpoint"); app.ts exempts it from x-api-key. */
export const BOT_MESSAGES_PATH = '/api/messages';

/**
 * Activities arrive from the Bot Framework's few addresses for the whole organisation (a call-tree
 * event's answers come at once), so the per-address limit is high: it only caps the work a flood of
 * unsigned requests can cause.
 */
const BOT_RATE_LIMIT_PER_MINUTE = 20_000;

const Account = z.looseObject({
  id: z.string().min(1),
  /** The person's Entra object id (people only). */
  aadObjectId: z.string().min(1).optional(),
});

/**
 * What the endpoint reads of an activity (the Bot Framework activity schema; everything else is
 * ignored). Only `type` is required here: each kind checks the fields it needs, and an activity
 * without them is acknowledged and ignored.
 */
const IncomingActivity = z.looseObject({
  type: z.string(),
  id: z.string().optional(),
  channelId: z.string().optional(),
  serviceUrl: z
    .url({ protocol: /^https?$/ })
    .optional()
    .catch(undefined),
  locale: z.string().optional().catch(undefined),
  from: Account.optional().catch(undefined),
  recipient: Account.optional().catch(undefined),
  conversation: z
    .looseObject({
      id: z.string().min(1),
      conversationType: z.string().optional(),
      tenantId: z.string().optional(),
    })
    .optional()
    .catch(undefined),
  channelData: z
    .looseObject({ tenant: z.looseObject({ id: z.string() }).optional().catch(undefined) })
    .optional()
    .catch(undefined),
  action: z.string().optional().catch(undefined),
  membersAdded: z.array(Account).optional().catch(undefined),
  membersRemoved: z.array(Account).optional().catch(undefined),
  name: z.string().optional().catch(undefined),
  value: z.unknown().optional(),
});
type IncomingActivity = z.infer<typeof IncomingActivity>;

/** The `value.action` of an `adaptiveCard/action` invoke (Universal Actions, `Action.Execute`). */
const CardActionValue = z.looseObject({
  action: z.looseObject({
    type: z.literal('Action.Execute'),
    verb: z.string().min(1).max(100),
    data: z.record(z.string(), z.unknown()).optional(),
  }),
});

/** The tenant an activity comes from. */
function tenantOf(activity: IncomingActivity): string | null {
  return activity.conversation?.tenantId ?? activity.channelData?.tenant?.id ?? null;
}

/** Where to reach the person again, when the activity says it: a 1:1 chat between them and this bot. */
function personalConversation(activity: IncomingActivity) {
  const { serviceUrl, conversation, recipient, from } = activity;
  if (!serviceUrl || !conversation || !recipient || conversation.conversationType !== 'personal') return null;
  if (!from?.aadObjectId) return null;
  return { serviceUrl, conversationId: conversation.id, botId: recipient.id, aadObjectId: from.aadObjectId };
}

/** Acknowledges an activity the bot has nothing (more) to do with. */
function acknowledged(reply: FastifyReply): FastifyReply {
  return reply.code(200).send();
}

/**
 * `POST /api/messages`: the Teams bot, registered only when TEAMS_BOT_APP_ID is set. Every activity
 * carries a Bot Framework token, checked before its body is read. Adding BTalk in Teams keeps the
 * person's conversation (notifications reach them there), removing it stops them; card buttons
 * (`Action.Execute`) go to teams/cardActions.ts; a message typed to the bot gets the help card.
 * Activities of other kinds, or without the fields their kind needs, are acknowledged and ignored.
 */
export function teamsBotRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    const bot = ctx.config.teamsBot;
    if (!bot) return;
    const verifier = new ActivityTokenVerifier(bot);
    const connector = new BotConnector(bot);
    const tokens = new WeakMap<FastifyRequest, ActivityTokenClaims>();

    /** Adds BTalk for the person: notifications reach them in this conversation from now on. */
    async function connect(activity: IncomingActivity, log: FastifyBaseLogger) {
      const where = personalConversation(activity);
      if (!where) return log.info({ type: activity.type }, 'teams bot: install outside a 1:1 chat ignored');
      const tenantId = tenantOf(activity);
      const connected = await transact(ctx, async (trx) => {
        const person = await personForTeamsUser(trx, where.aadObjectId, tenantId);
        if (!person) return false;
        await saveConversation(trx, {
          userId: person.id,
          tenantId,
          serviceUrl: where.serviceUrl,
          conversationId: where.conversationId,
          botId: where.botId,
        });
        return true;
      });
      if (!connected) log.info({ tenantId }, 'teams bot: BTalk was added by someone BTalk does not know');
    }

    /** The person removed BTalk in Teams: nothing more is sent there. */
    async function remove(activity: IncomingActivity, log: FastifyBaseLogger) {
      const where = personalConversation(activity);
      if (!where) return log.info({ type: activity.type }, 'teams bot: removal outside a 1:1 chat ignored');
      const tenantId = tenantOf(activity);
      await transact(ctx, async (trx) => {
        const person = await personForTeamsUser(trx, where.aadObjectId, tenantId);
        if (person) await disconnect(trx, person.id, 'removed in Teams');
      });
    }

    /** A button of a BTalk card: the person's answer, the post's bell off, or an acknowledgement. */
    async function cardAction(activity: IncomingActivity): Promise<AdaptiveCardActionResponse> {
      const value = CardActionValue.safeParse(activity.value);
      if (!value.success) {
        return {
          statusCode: 400,
          type: 'application/vnd.microsoft.error',
          value: {
            code: 'BadRequest',
            message: 'The card action has no Action.Execute verb.',
            innerHttpError: { statusCode: 400, body: null },
          },
        };
      }
      const person = await personForTeamsUser(ctx.db.kysely, activity.from?.aadObjectId, tenantOf(activity));
      const card = person
        ? await handleCardAction(ctx, person, {
            verb: value.data.action.verb,
            data: value.data.action.data ?? {},
          })
        : unknownPersonCard(botLocaleOf(activity.locale), ctx.config.publicUrl);
      return { statusCode: 200, type: 'application/vnd.microsoft.card.adaptive', value: card };
    }

    /** Answers a message typed to the bot with the help card, in the person's language. */
    async function help(activity: IncomingActivity, log: FastifyBaseLogger) {
      const { serviceUrl, conversation } = activity;
      if (!serviceUrl || !conversation) return;
      const person = await personForTeamsUser(ctx.db.kysely, activity.from?.aadObjectId, tenantOf(activity));
      const card = helpCard(person?.locale ?? botLocaleOf(activity.locale), ctx.config.publicUrl);
      try {
        await connector.send(
          { serviceUrl, conversationId: conversation.id },
          {
            type: 'message',
            ...(activity.id ? { replyToId: activity.id } : {}),
            attachments: [{ contentType: 'application/vnd.microsoft.card.adaptive', content: card }],
          },
        );
      } catch (error) {
        // A help card is not worth the Bot Framework sending the message again.
        log.warn({ err: error }, 'teams bot: the help card could not be sent');
      }
    }

    app.post(
      '/messages',
      {
        config: { rateLimit: perAddress(BOT_RATE_LIMIT_PER_MINUTE, 'teams-bot') },
        schema: {
          summary: 'The Teams bot: activities from the Bot Framework (Bot Framework token, not x-api-key)',
          description:
            'The Bot Framework activity protocol. `Authorization: Bearer` carries the Bot Framework token; a missing, forged, expired, wrong-issuer or wrong-audience token is a 401. Unknown or incomplete activities are acknowledged and ignored.',
          security: [],
        },
        // Before the body is read: an unsigned request costs no parsing.
        preParsing: async (request, _reply, payload) => {
          tokens.set(request, await verifier.verify(request.headers.authorization));
          return payload;
        },
      },
      async (request, reply) => {
        const token = tokens.get(request);
        if (!token) throw new AppError('unauthenticated', 'The activity token was not checked.');
        const parsed = IncomingActivity.safeParse(request.body);
        if (!parsed.success) {
          request.log.info('teams bot: a body that is not an activity was ignored');
          return acknowledged(reply);
        }
        const activity = parsed.data;
        // The token names the Bot Connector it was issued for: an activity may not point elsewhere.
        if (
          token.serviceUrl &&
          activity.serviceUrl &&
          !sameServiceUrl(token.serviceUrl, activity.serviceUrl)
        ) {
          throw new AppError(
            'unauthenticated',
            "The activity's serviceUrl is not the one its token was issued for.",
          );
        }
        if (token.endorsements && activity.channelId && !token.endorsements.includes(activity.channelId)) {
          throw new AppError(
            'unauthenticated',
            `The activity token's key is not endorsed for ${activity.channelId}.`,
          );
        }
        const botId = activity.recipient?.id;
        switch (activity.type) {
          case 'installationUpdate':
            if (activity.action === 'add' || activity.action === 'add-upgrade')
              await connect(activity, request.log);
            if (activity.action === 'remove' || activity.action === 'remove-upgrade')
              await remove(activity, request.log);
            return acknowledged(reply);
          case 'conversationUpdate':
            if (botId && activity.membersAdded?.some((m) => m.id === botId))
              await connect(activity, request.log);
            else if (botId && activity.membersRemoved?.some((m) => m.id === botId))
              await remove(activity, request.log);
            return acknowledged(reply);
          case 'invoke':
            if (activity.name !== 'adaptiveCard/action') return acknowledged(reply);
            return reply.code(200).send(await cardAction(activity));
          case 'message':
            await help(activity, request.log);
            return acknowledged(reply);
          default:
            return acknowledged(reply);
        }
      },
    );
  };
}
