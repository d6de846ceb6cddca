import { describe, expect, it } from 'vitest';
import { startLocalS3, testS3Config } from '../test/s3.ts';
import { ConfigError, loadConfig } from './index.ts';

/** The error message of a configuration that must not load. */
function refusal(env: Record<string, string>): string {
  try {
    loadConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error(`loaded: ${JSON.stringify(env)}`);
}

const MINIO = {
  S3_BUCKET: 'btalk',
  S3_ENDPOINT: 'http://127.0.0.1:9000',
  S3_ACCESS_KEY_ID: 'btalk-app',
  S3_SECRET_ACCESS_KEY: 'wJalrXUtnFEMI-K7MDENG-bPxRfiCYEXAMPLEKEY',
};

describe('the S3_* configuration', () => {
  it('keeps attachments in DATA_DIR/files when no S3_* variable is set', () => {
    expect(loadConfig({}).s3).toBeNull();
  });

  it('reads a MinIO-style store with its defaults: path style, no prefix, downloads through BTalk', () => {
    expect(loadConfig(MINIO).s3).toEqual({
      bucket: 'btalk',
      region: 'us-east-1',
      endpoint: 'http://127.0.0.1:9000',
      credentials: { accessKeyId: 'btalk-app', secretAccessKey: MINIO.S3_SECRET_ACCESS_KEY },
      forcePathStyle: true,
      prefix: '',
      signedDownloads: false,
      signedUrlSeconds: 60,
    });
  });

  it('reads AWS S3 with the default credential chain, signed downloads and a prefix', () => {
    expect(
      loadConfig({
        S3_BUCKET: 'btalk-files',
        S3_REGION: 'ap-southeast-1',
        S3_PREFIX: 'prod/attachments/',
        S3_SIGNED_DOWNLOADS: 'true',
        S3_SIGNED_URL_SECONDS: '300',
      }).s3,
    ).toEqual({
      bucket: 'btalk-files',
      region: 'ap-southeast-1',
      endpoint: null,
      credentials: null,
      forcePathStyle: false,
      prefix: 'prod/attachments',
      signedDownloads: true,
      signedUrlSeconds: 300,
    });
    expect(loadConfig({ ...MINIO, S3_FORCE_PATH_STYLE: 'false' }).s3?.forcePathStyle).toBe(false);
  });

  it('makes of a local S3’s variables what the tests’ S3FileStorage uses', async () => {
    const s3 = await startLocalS3();
    try {
      expect(loadConfig(s3.env).s3).toEqual(testS3Config(s3));
    } finally {
      await s3.stop();
    }
  });

  it('refuses S3_* variables without S3_BUCKET, naming them', () => {
    expect(refusal({ S3_ENDPOINT: 'http://127.0.0.1:9000', S3_REGION: 'eu-west-1' })).toMatch(
      /S3_BUCKET: must be set when other S3_\* variables are \(S3_ENDPOINT, S3_REGION\)/,
    );
    // A misspelt name is caught too.
    expect(refusal({ S3_BUKET: 'btalk' })).toMatch(/S3_BUCKET: must be set .*\(S3_BUKET\)/);
  });

  it('refuses a key id without its secret and a secret without its key id, never printing the secret', () => {
    const noSecret = refusal({ S3_BUCKET: 'btalk', S3_ACCESS_KEY_ID: 'btalk-app' });
    expect(noSecret).toMatch(/S3_SECRET_ACCESS_KEY: must be set with S3_ACCESS_KEY_ID/);
    const noKeyId = refusal({ S3_BUCKET: 'btalk', S3_SECRET_ACCESS_KEY: MINIO.S3_SECRET_ACCESS_KEY });
    expect(noKeyId).toMatch(/S3_ACCESS_KEY_ID: must be set with S3_SECRET_ACCESS_KEY/);
    expect(noKeyId).not.toContain(MINIO.S3_SECRET_ACCESS_KEY);
    // A bad key id is named, its value hidden.
    expect(refusal({ ...MINIO, S3_ACCESS_KEY_ID: '   ' })).toMatch(/S3_ACCESS_KEY_ID: .*\(value hidden\)/);
    expect(refusal({ ...MINIO, S3_BUCKET: 's3://btalk' })).toMatch(/S3_BUCKET: must be a bucket name/);
  });

  it('refuses a bad endpoint without repeating a password in it', () => {
    expect(refusal({ ...MINIO, S3_ENDPOINT: 'minio:9000' })).toMatch(
      /S3_ENDPOINT: must be an http:\/\/ or https:\/\//,
    );
    expect(refusal({ ...MINIO, S3_ENDPOINT: 'not an address' })).toMatch(/S3_ENDPOINT: must be a full http/);
    const withPassword = refusal({ ...MINIO, S3_ENDPOINT: 'https://admin:hunter2hunter2@minio.example.org' });
    expect(withPassword).toMatch(/S3_ENDPOINT: must not carry a user or password/);
    expect(withPassword).not.toContain('hunter2');
    expect(refusal({ ...MINIO, S3_ENDPOINT: 'https://minio.example.org/?region=x' })).toMatch(
      /S3_ENDPOINT: must not have a query/,
    );
  });

  it('refuses bad values of the other S3_* variables, each named', () => {
    expect(refusal({ ...MINIO, S3_REGION: 'Europe (Frankfurt)' })).toMatch(
      /S3_REGION: must be a region name/,
    );
    expect(refusal({ ...MINIO, S3_FORCE_PATH_STYLE: 'sometimes' })).toMatch(
      /S3_FORCE_PATH_STYLE: must be true or false/,
    );
    expect(refusal({ ...MINIO, S3_PREFIX: '/btalk' })).toMatch(/S3_PREFIX: must be a key prefix/);
    expect(refusal({ ...MINIO, S3_PREFIX: 'a//b' })).toMatch(/S3_PREFIX: must be a key prefix/);
    expect(refusal({ ...MINIO, S3_PREFIX: 'btalk/../other' })).toMatch(/S3_PREFIX: must not have \. or \.\./);
    expect(refusal({ ...MINIO, S3_SIGNED_DOWNLOADS: 'maybe' })).toMatch(
      /S3_SIGNED_DOWNLOADS: must be true or false/,
    );
    expect(refusal({ ...MINIO, S3_SIGNED_URL_SECONDS: '0' })).toMatch(
      /S3_SIGNED_URL_SECONDS: must be between 1 and 3600 seconds/,
    );
    expect(refusal({ ...MINIO, S3_SIGNED_URL_SECONDS: '3601' })).toMatch(/S3_SIGNED_URL_SECONDS/);
  });

  it('refuses signed downloads from an http:// store for an https:// site (browsers block them)', () => {
    expect(
      refusal({ ...MINIO, S3_SIGNED_DOWNLOADS: 'true', PUBLIC_URL: 'https://btalk.example.org' }),
    ).toMatch(/S3_SIGNED_DOWNLOADS: the store is at an http:\/\/ S3_ENDPOINT while PUBLIC_URL is https:\/\//);
    expect(loadConfig({ ...MINIO, S3_SIGNED_DOWNLOADS: 'true' }).s3?.signedDownloads).toBe(true);
  });
});
