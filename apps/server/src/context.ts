import { hkdfSync } from 'node:crypto';
import { AccessTokens } from './auth/accessTokens.ts';
import { DirectoryClient } from './auth/directoryClient.ts';
import { Sealer } from './auth/seal.ts';
import { tokenSecret } from './auth/secrets.ts';
import { CurrentTermsVersion } from './auth/termsGate.ts';
import type { LoadedEventPeople } from './calltree/eventStore.ts';
import { FRESH_LOAD_GAP_MS, FRESH_LOAD_KEEP_MS, FreshLoads } from './calltree/freshLoads.ts';
import { EventSnapshots } from './calltree/snapshots.ts';
import type { Config } from './config/index.ts';
import type { Db } from './db/index.ts';
import { EventBus } from './events/bus.ts';
import { createFileStorage, type FileStorage } from './files/storage.ts';
import { Lifecycle } from './lifecycle.ts';
import { Metrics } from './metrics/metrics.ts';
import type { Channel } from './notifications/channels/channel.ts';
import { createChannels } from './notifications/channels/index.ts';
import { loadVapidKeys, type VapidKeys } from './notifications/vapid.ts';
import { createRoomRegistry, type RoomRegistry } from './realtime/rooms.ts';
import { StreamPosition } from './realtime/streamPosition.ts';

/** What every part of the server is given: configuration, storage and services. No global state. */
export interface AppContext {
  config: Config;
  db: Db;
  /** The server's version, from its package.json. */
  version: string;
  /** Signs and checks access tokens. */
  tokens: AccessTokens;
  /** Signals commits that may have recorded domain events (see commands/transact.ts). */
  bus: EventBus;
  /** The current terms of use version, cached for the terms gate (see auth/termsGate.ts). */
  terms: CurrentTermsVersion;
  /** BTalk as a client of its directory (sign-in, refresh, on-behalf-of, Graph profile). */
  directory: DirectoryClient;
  /** Seals secrets kept in the database (the directory's tokens). */
  sealer: Sealer;
  /** The server secret that signs access tokens; other keys are derived from it. */
  secret: Uint8Array;
  /** Attachment contents: the local folder, or an S3-compatible store when S3_BUCKET is set. */
  files: FileStorage;
  /** Who may see which realtime rooms, by room kind (realtime/rooms.ts). */
  rooms: RoomRegistry;
  /** The notification engine's channels (push, e-mail, Teams) and the Web Push identity. */
  notifications: { channels: Channel[]; vapid: VapidKeys | null };
  /** Prometheus metrics of this server (metrics/): its own registry, never prom-client's global one. */
  metrics: Metrics;
  /** Whether this instance is stopping (SIGTERM): not ready, connections closing (lifecycle.ts). */
  lifecycle: Lifecycle;
  /** Call-tree events' people as the roll-ups read them, loaded once for many readers (calltree/freshLoads.ts). */
  eventPeople: FreshLoads<LoadedEventPeople>;
  /** Call-tree events' snapshots (who manages whom), read once per event (calltree/snapshots.ts). */
  snapshots: EventSnapshots;
  /** Where this instance's realtime stream is in the event log (the API's `EVENT_SEQ_HEADER`). */
  stream: StreamPosition;
}

/** Builds the context of a server from its configuration and open database. */
export function createContext(config: Config, db: Db, version: string): AppContext {
  const secret = tokenSecret(config);
  // The development directory registers BTalk with a secret derived from the server's own, so that
  // both halves agree after a restart without anyone setting one.
  const clientSecret =
    config.directory.clientSecret ??
    Buffer.from(hkdfSync('sha256', secret, 'btalk-directory', 'client-secret', 32)).toString('base64url');
  const vapid = loadVapidKeys(config);
  return {
    config,
    db,
    version,
    tokens: new AccessTokens(secret, config.publicUrl, config.accessTokenTtlSeconds),
    bus: new EventBus(),
    terms: new CurrentTermsVersion(db.kysely),
    directory: new DirectoryClient(config.directory, clientSecret),
    sealer: new Sealer(secret, 'database'),
    secret,
    files: createFileStorage(config),
    rooms: createRoomRegistry(),
    notifications: { channels: createChannels({ config, db, secret, vapid }), vapid },
    metrics: new Metrics({
      db,
      version,
      scraped: config.metrics.token !== null || config.metrics.port !== null,
    }),
    lifecycle: new Lifecycle(),
    eventPeople: new FreshLoads(FRESH_LOAD_GAP_MS, FRESH_LOAD_KEEP_MS),
    snapshots: new EventSnapshots(),
    stream: new StreamPosition(),
  };
}
