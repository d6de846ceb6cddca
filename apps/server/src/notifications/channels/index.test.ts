import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../db/index.ts';
import { testConfig } from '../../test/server.ts';
import { loadVapidKeys } from '../vapid.ts';
import { createChannels } from './index.ts';

describe('createChannels', () => {
  const db = openDatabase({ dataDir: ':memory:' });
  afterAll(() => db.close());
  const secret = new Uint8Array(32);
  const namesWith = (env: Record<string, string>) => {
    const config = testConfig(env);
    return createChannels({ config, db, secret, vapid: loadVapidKeys(config) }).map((c) => c.name);
  };

  it('offers push with WEB_PUSH and e-mail with SMTP_URL', () => {
    expect(namesWith({ WEB_PUSH: 'false' })).toEqual([]);
    expect(namesWith({ WEB_PUSH: 'true' })).toEqual(['push']);
    expect(namesWith({ WEB_PUSH: 'false', SMTP_URL: 'smtp://127.0.0.1:2525' })).toEqual(['email']);
    expect(namesWith({ WEB_PUSH: 'true', SMTP_URL: 'smtp://127.0.0.1:2525' })).toEqual(['push', 'email']);
  });

  it('offers Teams only with a bot (TEAMS_BOT_APP_ID and its password)', () => {
    const bot = { TEAMS_BOT_APP_ID: 'bot-app-id', TEAMS_BOT_APP_PASSWORD: 'bot-secret' };
    expect(namesWith({ WEB_PUSH: 'false', ...bot })).toEqual(['teams']);
    expect(namesWith({ WEB_PUSH: 'true', ...bot })).toEqual(['push', 'teams']);
  });
});
