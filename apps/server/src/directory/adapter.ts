import type { Kysely } from 'kysely';
import type { Adapter, AdapterPayload } from 'oidc-provider';
import type { Database } from '../db/index.ts';

/**
 * Storage of the development directory (oidc-provider's adapter interface) in BTalk's own database
 * (table `directory_records`), so that it survives restarts and works the same on SQLite and PostgreSQL.
 */
export function databaseAdapter(db: Kysely<Database>) {
  const REVOKED_WITH_GRANT = new Set([
    'AccessToken',
    'AuthorizationCode',
    'RefreshToken',
    'DeviceCode',
    'BackchannelAuthenticationRequest',
  ]);
  return class DatabaseAdapter implements Adapter {
    readonly model: string;

    constructor(model: string) {
      this.model = model;
    }

    async upsert(id: string, payload: AdapterPayload, expiresIn: number): Promise<void> {
      const row = {
        payload: JSON.stringify(payload),
        // Only tokens and codes die with their grant: an Interaction also names the grant it began
        // with, and must outlive that grant's revocation when another person signs in (as in
        // oidc-provider's own memory adapter).
        grant_id: REVOKED_WITH_GRANT.has(this.model) ? (payload.grantId ?? null) : null,
        uid: payload.uid ?? null,
        user_code: payload.userCode ?? null,
        expires_at: expiresIn ? new Date(Date.now() + expiresIn * 1000).toISOString() : null,
      };
      await db
        .insertInto('directory_records')
        .values({ model: this.model, id, ...row })
        .onConflict((oc) => oc.columns(['model', 'id']).doUpdateSet(row))
        .execute();
    }

    async #findBy(column: 'id' | 'uid' | 'user_code', value: string): Promise<AdapterPayload | undefined> {
      const row = await db
        .selectFrom('directory_records')
        .select(['payload', 'expires_at'])
        .where('model', '=', this.model)
        .where(column, '=', value)
        .executeTakeFirst();
      if (!row) return undefined;
      if (row.expires_at && Date.parse(row.expires_at) <= Date.now()) return undefined;
      return JSON.parse(row.payload) as AdapterPayload;
    }

    find(id: string) {
      return this.#findBy('id', id);
    }

    findByUid(uid: string) {
      return this.#findBy('uid', uid);
    }

    findByUserCode(userCode: string) {
      return this.#findBy('user_code', userCode);
    }

    async consume(id: string): Promise<void> {
      const found = await this.find(id);
      if (!found) return;
      await db
        .updateTable('directory_records')
        .set({ payload: JSON.stringify({ ...found, consumed: Math.floor(Date.now() / 1000) }) })
        .where('model', '=', this.model)
        .where('id', '=', id)
        .execute();
    }

    async destroy(id: string): Promise<void> {
      await db.deleteFrom('directory_records').where('model', '=', this.model).where('id', '=', id).execute();
    }

    async revokeByGrantId(grantId: string): Promise<void> {
      await db.deleteFrom('directory_records').where('grant_id', '=', grantId).execute();
    }
  };
}

/** Deletes expired records; the directory calls it now and then. */
export async function pruneDirectoryRecords(db: Kysely<Database>): Promise<void> {
  await db.deleteFrom('directory_records').where('expires_at', '<', new Date().toISOString()).execute();
}
