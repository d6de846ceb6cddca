/**
 * Attachments in an S3-compatible object store (AWS S3, MinIO, Ceph, Garage): the S3_* variables
 * as `loadConfig` hands them over after their own checks (config/index.ts), and what only makes
 * sense together. Null in `Config.s3` means the local folder `DATA_DIR/files`.
 */
export interface S3Config {
  bucket: string;
  region: string;
  /** The store's S3 API address (MinIO, Ceph, Garage); null: AWS S3's own for the region. */
  endpoint: string | null;
  /** S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY; null: the SDK's default chain (AWS_* variables, profile, instance or pod role). */
  credentials: { accessKeyId: string; secretAccessKey: string } | null;
  /** Buckets in the path (`host/bucket/key`) rather than the host name (`bucket.host/key`). */
  forcePathStyle: boolean;
  /** Put before every key with a slash (`btalk/<key>`); '' for none. */
  prefix: string;
  /** Downloads answer 302 to a presigned GET of the store instead of passing the bytes on. */
  signedDownloads: boolean;
  /** How long a presigned download address is valid. */
  signedUrlSeconds: number;
}

/** The S3_* values after the schema's checks (defaults applied). */
export interface S3Values {
  S3_BUCKET?: string | undefined;
  S3_REGION: string;
  S3_ENDPOINT?: string | undefined;
  S3_ACCESS_KEY_ID?: string | undefined;
  S3_SECRET_ACCESS_KEY?: string | undefined;
  S3_FORCE_PATH_STYLE?: boolean | undefined;
  S3_PREFIX?: string | undefined;
  S3_SIGNED_DOWNLOADS: boolean;
  S3_SIGNED_URL_SECONDS: number;
  PUBLIC_URL?: string | undefined;
}

/** A bucket name as S3 and its look-alikes accept it (not a URL, not `s3://...`). */
export const S3_BUCKET_PATTERN = /^[a-zA-Z0-9][a-zA-Z0-9._-]{1,61}[a-zA-Z0-9]$/;

/** A key prefix: folder-like names of letters, digits, `.`, `_`, `-`, joined by single slashes. */
export const S3_PREFIX_PATTERN = /^[A-Za-z0-9._-]+(\/[A-Za-z0-9._-]+)*\/?$/;

/**
 * What is wrong with S3_ENDPOINT, or null. The value is never repeated whole: an address with a
 * user and password in it would put the password in the log.
 */
function endpointProblem(value: string): string | null {
  let address: URL;
  try {
    address = new URL(value);
  } catch {
    return 'must be a full http:// or https:// address, e.g. http://127.0.0.1:9000 for MinIO';
  }
  if (address.protocol !== 'http:' && address.protocol !== 'https:') {
    return `must be an http:// or https:// address (got ${address.protocol}//...)`;
  }
  if (address.username || address.password) {
    return 'must not carry a user or password: set S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY';
  }
  if (address.search || address.hash) return 'must not have a query (?...) or a fragment (#...)';
  return null;
}

/**
 * The problems of the S3_* variables taken together, one line each naming its variable (never a
 * secret's value): S3_* variables without S3_BUCKET, a key id without its secret, a bad endpoint...
 * `present` are the variables that were set, to tell a default from a choice.
 */
export function s3Problems(present: Record<string, unknown>, e: S3Values): string[] {
  const problems: string[] = [];
  const given = Object.keys(present)
    .filter((name) => name.startsWith('S3_'))
    .sort();
  if (!e.S3_BUCKET) {
    if (given.length > 0) {
      problems.push(
        `  S3_BUCKET: must be set when other S3_* variables are (${given.join(', ')}): the bucket that ` +
          'holds the attachments; unset all S3_* variables to keep them in DATA_DIR/files',
      );
    }
    return problems;
  }
  const defaultChain =
    "set both, or neither to use the AWS SDK's default credentials (AWS_* variables, profile, instance role)";
  if (e.S3_ACCESS_KEY_ID && !e.S3_SECRET_ACCESS_KEY) {
    problems.push(`  S3_SECRET_ACCESS_KEY: must be set with S3_ACCESS_KEY_ID (${defaultChain})`);
  }
  if (!e.S3_ACCESS_KEY_ID && e.S3_SECRET_ACCESS_KEY) {
    problems.push(`  S3_ACCESS_KEY_ID: must be set with S3_SECRET_ACCESS_KEY (${defaultChain})`);
  }
  const endpoint = e.S3_ENDPOINT ? endpointProblem(e.S3_ENDPOINT) : null;
  if (endpoint) problems.push(`  S3_ENDPOINT: ${endpoint}`);
  if (e.S3_SIGNED_DOWNLOADS && e.S3_ENDPOINT?.startsWith('http://') && e.PUBLIC_URL?.startsWith('https://')) {
    problems.push(
      '  S3_SIGNED_DOWNLOADS: the store is at an http:// S3_ENDPOINT while PUBLIC_URL is https://: browsers ' +
        'refuse to follow an https page to an http download (mixed content); give the store an https address ' +
        'or set S3_SIGNED_DOWNLOADS=false',
    );
  }
  if (e.S3_PREFIX?.split('/').some((part) => part === '.' || part === '..')) {
    problems.push('  S3_PREFIX: must not have . or .. as a part');
  }
  return problems;
}

/** The object store of valid S3_* values, or null when S3_BUCKET is unset (the local folder). */
export function s3Config(e: S3Values): S3Config | null {
  if (!e.S3_BUCKET) return null;
  const endpoint = e.S3_ENDPOINT ? e.S3_ENDPOINT.replace(/\/+$/, '') : null;
  return {
    bucket: e.S3_BUCKET,
    region: e.S3_REGION,
    endpoint,
    credentials:
      e.S3_ACCESS_KEY_ID && e.S3_SECRET_ACCESS_KEY
        ? { accessKeyId: e.S3_ACCESS_KEY_ID, secretAccessKey: e.S3_SECRET_ACCESS_KEY }
        : null,
    // MinIO, Ceph and Garage are usually reached by one host name or an address: path style.
    forcePathStyle: e.S3_FORCE_PATH_STYLE ?? endpoint !== null,
    prefix: (e.S3_PREFIX ?? '').replace(/\/+$/, ''),
    signedDownloads: e.S3_SIGNED_DOWNLOADS,
    signedUrlSeconds: e.S3_SIGNED_URL_SECONDS,
  };
}
