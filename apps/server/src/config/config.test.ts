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
