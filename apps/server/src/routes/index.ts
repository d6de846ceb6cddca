import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../context.ts';
import { realtimeRoutes } from '../realtime/routes.ts';
import { teamsBotRoutes } from '../teams/bot.ts';
import { analyticsRoutes } from './analytics/analytics.ts';
import { announcementRoutes } from './announcements/announcements.ts';
import { pushAcknowledgeRoutes } from './announcements/pushAcknowledge.ts';
import { attachmentRoutes } from './attachments/attachments.ts';
import { authRoutes } from './auth/auth.ts';
import { calltreeRoutes } from './calltree/index.ts';
import { commentRoutes } from './comments/comments.ts';
import { conversationRoutes } from './conversations/conversations.ts';
import { meRoutes } from './me/me.ts';
import { notificationDeliveryRoutes } from './notifications/deliveries.ts';
import { notificationRoutes } from './notifications/notifications.ts';
import { pushSubscriptionRoutes } from './notifications/pushSubscriptions.ts';
import { notificationSettingsRoutes } from './notifications/settings.ts';
import { adminPeopleRoutes } from './people/people.ts';
import { postRoutes } from './posts/posts.ts';
import { reactionRoutes } from './reactions/reactions.ts';
import { searchRoutes } from './search/search.ts';
import { systemRoutes } from './system/system.ts';
import { termsRoutes } from './terms/terms.ts';
import { memberRoutes } from './topics/members.ts';
import { topicRoutes } from './topics/topics.ts';
import { unsubscribeRoutes } from './unsubscribe/unsubscribe.ts';
import { uploadSettingsRoutes } from './uploadSettings/uploadSettings.ts';
import { userRoutes } from './users/users.ts';

/** Every API resource's routes, mounted under /api by app.ts. Add a resource here. */
export function apiRoutes(ctx: AppContext): FastifyPluginAsyncZod[] {
  return [
    systemRoutes(ctx),
    analyticsRoutes(ctx),
    meRoutes(ctx),
    notificationRoutes(ctx),
    unsubscribeRoutes(ctx),
    pushAcknowledgeRoutes(ctx),
    notificationSettingsRoutes(ctx),
    pushSubscriptionRoutes(ctx),
    notificationDeliveryRoutes(ctx),
    adminPeopleRoutes(ctx),
    termsRoutes(ctx),
    authRoutes(ctx),
    ...calltreeRoutes(ctx),
    userRoutes(ctx),
    topicRoutes(ctx),
    memberRoutes(ctx),
    conversationRoutes(ctx),
    postRoutes(ctx),
    announcementRoutes(ctx),
    commentRoutes(ctx),
    reactionRoutes(ctx),
    attachmentRoutes(ctx),
    uploadSettingsRoutes(ctx),
    searchRoutes(ctx),
    realtimeRoutes(ctx),
    teamsBotRoutes(ctx),
  ];
}
