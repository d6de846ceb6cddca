import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ConfigError, DEVELOPMENT_API_KEY, loadConfig } from './index.ts';

describe('configuration', () => {
  it('needs no variable at all', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      env: 'development',
      port: 8080,
      publicUrl: 'http://localhost:8080',
      apiKey: DEVELOPMENT_API_KEY,
      databaseUrl: undefined,
    });
    expect(config.dataDir).toMatch(/\/data$/);
  });

  it('names every bad variable, what it got and what it needs', () => {
    let error: unknown;
    try {
      loadConfig({ PORT: 'eighty', DATABASE_URL: 'mysql://x', LOG_LEVEL: 'loud' });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as Error).message;
    expect(message).toContain('PORT: must be a number (got "eighty")');
    expect(message).toContain('DATABASE_URL: must be a postgres:// connection string');
    expect(message).toContain('LOG_LEVEL');
  });

  it('reads the organisation time zone, Asia/Bangkok by default, and names a zone that does not exist', () => {
    expect(loadConfig({}).orgTimeZone).toBe('Asia/Bangkok');
    expect(loadConfig({ ORG_TIME_ZONE: 'Europe/London' }).orgTimeZone).toBe('Europe/London');
    expect(() => loadConfig({ ORG_TIME_ZONE: 'Asia/Bangkokk' })).toThrow(
      /ORG_TIME_ZONE: must be an IANA time zone name such as Asia\/Bangkok .*\(got "Asia\/Bangkokk"\)/,
    );
  });

  it('refuses executables and scripts by default, or the extensions UPLOAD_REFUSED_EXTENSIONS lists', () => {
    expect(loadConfig({}).uploads.refusedExtensions).toEqual(
      expect.arrayContaining(['exe', 'msi', 'bat', 'js', 'sh']),
    );
    expect(loadConfig({ UPLOAD_REFUSED_EXTENSIONS: ' .EXE, bat,exe ' }).uploads.refusedExtensions).toEqual([
      'bat',
      'exe',
    ]);
    expect(() => loadConfig({ UPLOAD_REFUSED_EXTENSIONS: 'exe,*.bat' })).toThrow(
      /UPLOAD_REFUSED_EXTENSIONS: must be file extensions separated by commas/,
    );
  });

  it('sizes the PostgreSQL pool from DATABASE_POOL_SIZE, 10 by default', () => {
    expect(loadConfig({}).databasePoolSize).toBe(10);
    expect(loadConfig({ DATABASE_POOL_SIZE: '40' }).databasePoolSize).toBe(40);
    expect(() => loadConfig({ DATABASE_POOL_SIZE: '0' })).toThrow(/DATABASE_POOL_SIZE: must be at least 1/);
    expect(() => loadConfig({ DATABASE_POOL_SIZE: '2.5' })).toThrow(
      /DATABASE_POOL_SIZE: must be a whole number/,
    );
  });

  it('requires a real client key in production', () => {
    expect(() => loadConfig({ BTALK_ENV: 'production' })).toThrow(/API_KEY: must be set in production/);
  });

  it('treats empty variables as unset', () => {
    expect(loadConfig({ PORT: '', DATABASE_URL: '' })).toMatchObject({ port: 8080, databaseUrl: undefined });
  });
});

describe('directory configuration', () => {
  it('uses the development directory by default, under PUBLIC_URL', () => {
    const { directory } = loadConfig({ PUBLIC_URL: 'http://localhost:9000' });
    expect(directory).toMatchObject({
      kind: 'development',
      issuer: 'http://localhost:9000/directory',
      redirectUri: 'http://localhost:9000/aad/callback',
      graphBase: 'http://localhost:9000/directory/graph/v1.0',
      signInMode: 'redirect',
    });
  });

  it('never runs the development directory in production', () => {
    expect(() =>
      loadConfig({ BTALK_ENV: 'production', API_KEY: 'k'.repeat(16), JWT_SECRET: 's'.repeat(40) }),
    ).toThrow(/ENTRA_TENANT_ID or OIDC_ISSUER: must be set in production/);
  });

  it('points at Entra ID with a tenant, client id and secret', () => {
    const tenant = '72f988bf-86f1-41af-91ab-2d7cd011db47';
    const { directory } = loadConfig({
      ENTRA_TENANT_ID: tenant,
      DIRECTORY_CLIENT_ID: 'client-1',
      DIRECTORY_CLIENT_SECRET: 'secret',
      PUBLIC_URL: 'https://btalk.example.org',
      SIGN_IN_MODE: 'popup',
    });
    expect(directory).toMatchObject({
      kind: 'entra',
      issuer: `https://login.microsoftonline.com/${tenant}/v2.0`,
      apiAudience: 'api://btalk.example.org/client-1',
      graphBase: 'https://graph.microsoft.com/v1.0',
      signInMode: 'popup',
    });
  });

  it('needs the client id and secret with a directory, and only one directory', () => {
    expect(() => loadConfig({ OIDC_ISSUER: 'https://id.example.org' })).toThrow(/DIRECTORY_CLIENT_SECRET/);
    expect(() =>
      loadConfig({
        OIDC_ISSUER: 'https://id.example.org',
        ENTRA_TENANT_ID: '72f988bf-86f1-41af-91ab-2d7cd011db47',
        DIRECTORY_CLIENT_ID: 'a',
        DIRECTORY_CLIENT_SECRET: 'b',
      }),
    ).toThrow(/not both/);
  });
});

describe('proxies and timeouts', () => {
  it('trusts no proxy unless TRUST_PROXY names one', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '1' }).trustProxy).toBe(1);
    expect(loadConfig({ TRUST_PROXY: 'loopback' }).trustProxy).toEqual(['loopback']);
    expect(loadConfig({ TRUST_PROXY: '127.0.0.1, 10.0.0.0/8,fd00::/8' }).trustProxy).toEqual([
      '127.0.0.1',
      '10.0.0.0/8',
      'fd00::/8',
    ]);
  });

  it('names TRUST_PROXY when it is neither a hop count nor addresses', () => {
    for (const bad of ['true', '10.0.0.0/33', 'proxy.example.org', '1,2', '10.0.0.1/8/8']) {
      expect(() => loadConfig({ TRUST_PROXY: bad }), bad).toThrow(
        /TRUST_PROXY: must be a hop count such as 1, or a comma-separated list/,
      );
    }
  });

  it('limits slow requests well below Node’s 300 s, and keeps idle connections past a load balancer’s 60 s', () => {
    expect(loadConfig({}).timeouts).toEqual({ requestMs: 120_000, headersMs: 10_000, keepAliveMs: 72_000 });
    expect(
      loadConfig({
        REQUEST_TIMEOUT_SECONDS: '5',
        HEADERS_TIMEOUT_SECONDS: '9',
        KEEP_ALIVE_TIMEOUT_SECONDS: '3',
      }).timeouts,
    ).toEqual({ requestMs: 5000, headersMs: 5000, keepAliveMs: 3000 });
    expect(() => loadConfig({ REQUEST_TIMEOUT_SECONDS: '0' })).toThrow(
      /REQUEST_TIMEOUT_SECONDS: must be between 1/,
    );
  });
});

/** A production configuration that passes every check; tests change one thing at a time. */
const production = (env: Record<string, string> = {}) => ({
  BTALK_ENV: 'production',
  API_KEY: 'k7Qm2xVt9pLr4sWz',
  JWT_SECRET: 'pV3n8Kq0ZrT6yW1bXs5Lm9Dc2Fh7Gj4Nu6Ea0Yi3Ok8Rw1Tx5Qz2Bv7Cn4Mp9Ld',
  PUBLIC_URL: 'https://btalk.example.org',
  OIDC_ISSUER: 'https://id.example.org',
  DIRECTORY_CLIENT_ID: 'btalk',
  DIRECTORY_CLIENT_SECRET: 'directory-client-secret-value',
  ...env,
});

/** The ConfigError message `loadConfig(env)` throws. */
function configErrorOf(env: Record<string, string>): string {
  try {
    loadConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error('loadConfig accepted the configuration');
}

describe('production safety', () => {
  it('accepts a production configuration with real secrets over https', () => {
    expect(loadConfig(production())).toMatchObject({
      env: 'production',
      publicUrl: 'https://btalk.example.org',
    });
  });

  it('refuses the development API key', () => {
    expect(configErrorOf(production({ API_KEY: DEVELOPMENT_API_KEY }))).toMatch(
      /API_KEY: must not be the development key in production/,
    );
  });

  it.each([
    ['one character repeated', 'a'.repeat(40)],
    ['a word repeated', 'changeme'.repeat(5)],
    ['a placeholder with a counter', 'changeme-changeme-changeme-123456'],
    ['the alphabet', 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ'],
    ['digits counting up', '1234567890'.repeat(4)],
    ['a keyboard row', 'qwertyuiopasdfghjklzxcvbnmqwertyuiop'],
  ])('refuses a JWT_SECRET that is %s, without printing it', (_what, secret) => {
    const message = configErrorOf(production({ JWT_SECRET: secret }));
    expect(message).toMatch(/JWT_SECRET: is too easy to guess for production/);
    expect(message).toContain('openssl rand -base64 48');
    expect(message).not.toContain(secret);
  });

  it('accepts generated secrets, however they are written', () => {
    for (let i = 0; i < 200; i++) {
      for (const secret of [
        randomBytes(48).toString('base64'),
        randomBytes(24).toString('base64'),
        randomBytes(16).toString('hex'),
      ]) {
        expect(() => loadConfig(production({ JWT_SECRET: secret }))).not.toThrow();
      }
    }
  });

  it('refuses a missing or http PUBLIC_URL unless ALLOW_HTTP_PUBLIC_URL=true', () => {
    expect(configErrorOf(production({ PUBLIC_URL: '' }))).toMatch(
      /PUBLIC_URL: must be an https:\/\/ address/,
    );
    const http = production({ PUBLIC_URL: 'http://btalk.lab.example.org' });
    expect(configErrorOf(http)).toMatch(/ALLOW_HTTP_PUBLIC_URL=true/);
    expect(loadConfig({ ...http, ALLOW_HTTP_PUBLIC_URL: 'true' }).publicUrl).toBe(
      'http://btalk.lab.example.org',
    );
  });

  it('never prints the value of a secret in a configuration error', () => {
    const secrets = {
      JWT_SECRET: 'short-hunter2',
      API_KEY: 'hunter3',
      DIRECTORY_CLIENT_SECRET: '',
      VAPID_PRIVATE_KEY: 'hunter4-not-a-key',
      SMTP_URL: 'mail://user:hunter5@mail.example.org',
      DATABASE_URL: 'mysql://btalk:hunter6@db.example.org/btalk',
      REDIS_URL: 'http://:hunter7@redis.example.org',
    };
    const message = configErrorOf(production(secrets));
    for (const name of Object.keys(secrets).filter((n) => n !== 'DIRECTORY_CLIENT_SECRET')) {
      expect(message).toContain(`${name}:`);
    }
    expect(message).toContain('(value hidden)');
    expect(message).not.toMatch(/hunter/);
    // Values that are not secret are still shown, to help.
    expect(configErrorOf({ PORT: 'eighty' })).toContain('(got "eighty")');
  });
});

describe('the development directory on a network', () => {
  it.each(['127.0.0.1', '127.0.1.1', 'localhost', '::1', '[::1]'])('listens on loopback %s', (host) => {
    expect(loadConfig({ HOST: host }).host).toBe(host);
  });

  it.each(['0.0.0.0', '::', '192.168.1.10', 'btalk.lab.example.org'])(
    'refuses HOST %s with the development directory, and says why',
    (host) => {
      const message = configErrorOf({ HOST: host });
      expect(message).toContain('HOST, ALLOW_DEVELOPMENT_DIRECTORY_ON_NETWORK');
      expect(message).toContain('admin@btalk.test');
      expect(message).toContain('ALLOW_DEVELOPMENT_DIRECTORY_ON_NETWORK=true');
    },
  );

  it('serves the network when told to, or with a real directory', () => {
    expect(loadConfig({ HOST: '0.0.0.0', ALLOW_DEVELOPMENT_DIRECTORY_ON_NETWORK: 'true' }).host).toBe(
      '0.0.0.0',
    );
    const oidc = {
      OIDC_ISSUER: 'https://id.example.org',
      DIRECTORY_CLIENT_ID: 'a',
      DIRECTORY_CLIENT_SECRET: 'b',
    };
    expect(loadConfig({ HOST: '0.0.0.0', ...oidc }).directory.kind).toBe('oidc');
  });
});
