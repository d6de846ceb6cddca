import { createDecipheriv, createECDH, hkdfSync, randomBytes, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { importJWK, jwtVerify } from 'jose';

/**
 * A local push service for tests and benchmarks, speaking the real Web Push protocol on a loopback
 * port: it checks each request's VAPID signature (RFC 8292) and decrypts its aes128gcm payload
 * (RFC 8291, 8188) with the browser's private key, as a browser would, then records the message.
 */

/** A browser's push subscription, with the private half that only the browser (and this test) knows. */
export interface BrowserSubscription {
  endpoint: string;
  /** As `PushSubscription.toJSON().keys`: what the server stores. */
  keys: { p256dh: string; auth: string };
  /** The browser's P-256 private key (raw 32 bytes). */
  privateKey: Buffer;
  /** The browser's P-256 public key (uncompressed, 65 bytes). */
  publicKey: Buffer;
  /** The 16-byte authentication secret. */
  authSecret: Buffer;
  /** The server key the browser subscribed with (base64url), if told: other senders are refused (403). */
  applicationServerKey?: string;
}

/** Makes a browser's side of a subscription to `endpoint`: a P-256 key pair and an auth secret. */
export function makeBrowserSubscription(
  endpoint: string,
  applicationServerKey?: string,
): BrowserSubscription {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  const authSecret = randomBytes(16);
  return {
    endpoint,
    keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: authSecret.toString('base64url') },
    privateKey: ecdh.getPrivateKey(),
    publicKey: ecdh.getPublicKey(),
    authSecret,
    ...(applicationServerKey ? { applicationServerKey } : {}),
  };
}

/** A message the push service accepted, decrypted. */
export interface ReceivedPush {
  /** The subscription id (the endpoint's last path segment). */
  id: string;
  /** The decrypted payload as text, and parsed when it is JSON. */
  text: string;
  json: unknown;
  /** The TTL, Urgency and Topic headers (RFC 8030). */
  ttl: number;
  urgency: string | null;
  topic: string | null;
  /** The checked VAPID claims and key. */
  vapid: { aud: string; exp: number; sub: string; publicKey: string };
  receivedAt: Date;
}

/** An answer the service gives instead of accepting, for the next `times` requests (to `id`, if given). */
export interface ForcedAnswer {
  status: number;
  headers?: Record<string, string>;
  times?: number;
  id?: string;
}

/** A running local push service. */
export interface PushService {
  /** The endpoint URL of subscription `id`: `http://127.0.0.1:<port>/push/<id>`. */
  url(id: string): string;
  /** Makes a browser subscription at a new endpoint of this service and registers it. */
  subscribe(applicationServerKey?: string): BrowserSubscription;
  /** Registers a subscription made elsewhere, so that its messages can be decrypted. */
  register(subscription: BrowserSubscription): void;
  /** Accepted messages, in order of arrival. */
  messages: ReceivedPush[];
  /** Requests refused, with the status and why (bad VAPID, unknown subscription, forced answers). */
  refusals: { id: string; status: number; reason: string }[];
  /** Answers `status` instead of accepting, `times` times (default 1), e.g. 410, 404, 429, 500. */
  respondWith(answer: ForcedAnswer): void;
  /** Forgets a subscription: its endpoint answers 410 Gone from now on. */
  expire(id: string): void;
  close(): Promise<void>;
}

/** RFC 8291 section 3.4: the HKDF info strings. */
const KEY_INFO = Buffer.from('WebPush: info\0');
const CEK_INFO = Buffer.from('Content-Encoding: aes128gcm\0');
const NONCE_INFO = Buffer.from('Content-Encoding: nonce\0');
const TAG_BYTES = 16;

const hkdf = (ikm: Buffer, salt: Buffer, info: Buffer, length: number) =>
  Buffer.from(hkdfSync('sha256', ikm, salt, info, length));

/**
 * Decrypts an `aes128gcm` Web Push body (RFC 8188 records, RFC 8291 keys) for the browser of
 * `subscription`; throws when it is not one.
 */
export function decryptPushBody(body: Buffer, subscription: BrowserSubscription): Buffer {
  if (body.length < 21) throw new Error('body shorter than the aes128gcm header');
  const salt = body.subarray(0, 16);
  const recordSize = body.readUInt32BE(16);
  const idLength = body[20] ?? 0;
  if (idLength !== 65) throw new Error(`keyid must be the sender's 65-byte public key, is ${idLength} bytes`);
  const senderPublic = body.subarray(21, 21 + idLength);
  const ciphertext = body.subarray(21 + idLength);
  if (recordSize < TAG_BYTES + 2) throw new Error(`record size ${recordSize} too small`);

  const ecdh = createECDH('prime256v1');
  ecdh.setPrivateKey(subscription.privateKey);
  const sharedSecret = ecdh.computeSecret(senderPublic);
  const keyInfo = Buffer.concat([KEY_INFO, subscription.publicKey, senderPublic]);
  const ikm = hkdf(sharedSecret, subscription.authSecret, keyInfo, 32);
  const cek = hkdf(ikm, salt, CEK_INFO, 16);
  const baseNonce = hkdf(ikm, salt, NONCE_INFO, 12);

  const plaintext: Buffer[] = [];
  const records = Math.ceil(ciphertext.length / recordSize);
  for (let seq = 0; seq < records; seq++) {
    const record = ciphertext.subarray(seq * recordSize, (seq + 1) * recordSize);
    // RFC 8188 2.3: the nonce of record `seq` is the base nonce XOR seq, big-endian (seq fits the last 4 bytes).
    const nonce = Buffer.from(baseNonce);
    nonce.writeUInt32BE((nonce.readUInt32BE(8) ^ seq) >>> 0, 8);
    const decipher = createDecipheriv('aes-128-gcm', cek, nonce);
    decipher.setAuthTag(record.subarray(record.length - TAG_BYTES));
    const padded = Buffer.concat([
      decipher.update(record.subarray(0, record.length - TAG_BYTES)),
      decipher.final(),
    ]);
    // Content, then the delimiter (2 in the last record, 1 before), then zero padding.
    let end = padded.length - 1;
    while (end >= 0 && padded[end] === 0) end--;
    const last = seq === records - 1;
    if (padded[end] !== (last ? 2 : 1)) throw new Error(`record ${seq} has no padding delimiter`);
    plaintext.push(padded.subarray(0, end));
  }
  return Buffer.concat(plaintext);
}

/** The VAPID claims of an `Authorization: vapid t=<jwt>, k=<key>` header, checked (RFC 8292). */
/**
 * Tokens already verified, as a push service keeps them: a sender reuses one token for hours, and
 * verifying an ES256 signature per message would make this service, not the sender, the bottleneck
 * of a benchmark. The expiry is still checked on every use.
 */
const verifiedTokens = new Map<string, ReceivedPush['vapid']>();

async function checkVapid(header: string | undefined, origin: string): Promise<ReceivedPush['vapid']> {
  const known = header ? verifiedTokens.get(`${origin} ${header}`) : undefined;
  if (known) {
    if (known.exp < Date.now() / 1000) throw new Error('the token has expired');
    return known;
  }
  const checked = await verifyVapid(header, origin);
  if (header && verifiedTokens.size < 10_000) verifiedTokens.set(`${origin} ${header}`, checked);
  return checked;
}

async function verifyVapid(header: string | undefined, origin: string): Promise<ReceivedPush['vapid']> {
  const match = /^vapid\s+(.+)$/i.exec(header ?? '');
  if (!match?.[1]) throw new Error('Authorization is not "vapid t=…, k=…"');
  const params = new Map(
    match[1].split(',').map((part) => {
      const eq = part.indexOf('=');
      return [part.slice(0, eq).trim(), part.slice(eq + 1).trim()] as const;
    }),
  );
  const jwt = params.get('t');
  const k = params.get('k');
  if (!jwt || !k) throw new Error('vapid header lacks t or k');
  const point = Buffer.from(k, 'base64url');
  if (point.length !== 65 || point[0] !== 4) throw new Error('k is not an uncompressed P-256 public key');
  const key = await importJWK(
    {
      kty: 'EC',
      crv: 'P-256',
      x: point.subarray(1, 33).toString('base64url'),
      y: point.subarray(33, 65).toString('base64url'),
    },
    'ES256',
  );
  const { payload } = await jwtVerify(jwt, key, {
    algorithms: ['ES256'],
    audience: origin,
    requiredClaims: ['aud', 'exp', 'sub'],
  });
  const exp = payload.exp ?? 0;
  // RFC 8292 2: no more than 24 hours from the time of the request (a minute's leeway for clocks).
  if (exp > Date.now() / 1000 + 24 * 60 * 60 + 60) throw new Error('exp is more than 24 hours ahead');
  const sub = payload.sub ?? '';
  if (!/^(mailto:|https:)/.test(sub)) throw new Error('sub is neither a mailto: nor an https: URI');
  return { aud: origin, exp, sub, publicKey: k };
}

async function readBody(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** Starts a local push service on 127.0.0.1 (`port` 0: any free one). */
export async function startPushService(port = 0): Promise<PushService> {
  const subscriptions = new Map<string, BrowserSubscription>();
  const forced: (ForcedAnswer & { times: number })[] = [];
  const messages: ReceivedPush[] = [];
  const refusals: PushService['refusals'] = [];
  let origin = '';

  const refuse = (response: ServerResponse, id: string, status: number, reason: string, headers = {}) => {
    refusals.push({ id, status, reason });
    response.writeHead(status, { 'content-type': 'text/plain', ...headers }).end(reason);
  };

  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    const path = new URL(request.url ?? '/', origin).pathname;
    const id = /^\/push\/([^/]+)$/.exec(path)?.[1];
    const body = await readBody(request);
    if (request.method !== 'POST' || !id) return refuse(response, id ?? '', 404, 'no such endpoint');
    const at = forced.findIndex((f) => f.id === undefined || f.id === id);
    const answer = at >= 0 ? forced[at] : undefined;
    if (answer) {
      answer.times -= 1;
      if (answer.times <= 0) forced.splice(at, 1);
      return refuse(response, id, answer.status, 'forced answer', answer.headers);
    }
    const subscription = subscriptions.get(id);
    if (!subscription) return refuse(response, id, 410, 'subscription expired or unknown');
    let vapid: ReceivedPush['vapid'];
    try {
      vapid = await checkVapid(request.headers.authorization, origin);
    } catch (error) {
      return refuse(response, id, 401, `VAPID: ${(error as Error).message}`);
    }
    if (subscription.applicationServerKey && subscription.applicationServerKey !== vapid.publicKey) {
      return refuse(response, id, 403, 'VAPID key is not the one the browser subscribed with');
    }
    const ttl = Number(request.headers.ttl);
    if (request.headers.ttl === undefined || !Number.isInteger(ttl) || ttl < 0) {
      return refuse(response, id, 400, 'TTL header missing or not a number of seconds');
    }
    if (request.headers['content-encoding'] !== 'aes128gcm') {
      return refuse(response, id, 415, 'Content-Encoding must be aes128gcm');
    }
    if (body.length > 4096) return refuse(response, id, 413, 'payload larger than 4096 bytes');
    let text: string;
    try {
      text = decryptPushBody(body, subscription).toString('utf8');
    } catch (error) {
      return refuse(response, id, 400, `cannot decrypt: ${(error as Error).message}`);
    }
    let json: unknown = null;
    try {
      json = JSON.parse(text);
    } catch {
      // Not JSON: the text is recorded as it is.
    }
    messages.push({
      id,
      text,
      json,
      ttl,
      urgency: typeof request.headers.urgency === 'string' ? request.headers.urgency : null,
      topic: typeof request.headers.topic === 'string' ? request.headers.topic : null,
      vapid,
      receivedAt: new Date(),
    });
    response.writeHead(201, { location: `${origin}/message/${randomUUID()}` }).end();
  };

  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      if (!response.headersSent) response.writeHead(500).end(String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const url = (id: string) => `${origin}/push/${id}`;
  const register = (subscription: BrowserSubscription) => {
    const id = new URL(subscription.endpoint).pathname.split('/').pop() ?? '';
    subscriptions.set(id, subscription);
  };
  return {
    url,
    subscribe(applicationServerKey) {
      const subscription = makeBrowserSubscription(url(randomUUID()), applicationServerKey);
      register(subscription);
      return subscription;
    },
    register,
    messages,
    refusals,
    respondWith(answer) {
      forced.push({ ...answer, times: answer.times ?? 1 });
    },
    expire(id) {
      subscriptions.delete(id);
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
