import type { Config } from '../../config/index.ts';
import type { Db } from '../../db/index.ts';
import { BotConnector } from '../../teams/connector.ts';
import { acknowledgeUrl } from '../acknowledgeLinks.ts';
import { unsubscribeToken } from '../unsubscribe.ts';
import type { VapidKeys } from '../vapid.ts';
import type { Channel } from './channel.ts';
import { createEmailChannel } from './email.ts';
import { createPushChannel } from './push.ts';
import { createTeamsChannel } from './teams.ts';

/** What the channels are made from. */
export interface ChannelDeps {
  config: Config;
  db: Db;
  /** The server secret (unsubscribe and acknowledge links are signed with keys derived from it). */
  secret: Uint8Array;
  vapid: VapidKeys | null;
}

/**
 * The channels this server can use, from its configuration (push with WEB_PUSH, e-mail with SMTP_URL,
 * Teams with TEAMS_BOT_APP_ID).
 */
export function createChannels(deps: ChannelDeps): Channel[] {
  const { config, secret, vapid } = deps;
  const channels: Channel[] = [];
  if (vapid) {
    channels.push(
      createPushChannel({
        db: deps.db.kysely,
        vapid,
        acknowledgeUrl: (userId, postId) => acknowledgeUrl(config.publicUrl, secret, userId, postId),
      }),
    );
  }
  if (config.notifications.smtpUrl) {
    channels.push(
      createEmailChannel({
        smtpUrl: config.notifications.smtpUrl,
        from: config.notifications.smtpFrom,
        publicUrl: config.publicUrl,
        unsubscribe: (userId) => unsubscribeToken(secret, userId),
      }),
    );
  }
  if (config.teamsBot) {
    channels.push(
      createTeamsChannel({ db: deps.db.kysely, config, connector: new BotConnector(config.teamsBot) }),
    );
  }
  return channels;
}
