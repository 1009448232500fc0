import type { Db } from '../db/database.js';

export interface ApiKeyRecord {
  appKey: string;
  careId: number;
  secretHash: string;
}

export interface ApiKeySummary {
  app_key: string;
  created_at: string;
  revoked_at: string | null;
}

/** API keys of clinics: the "API Access" part of the clinic settings area (spec 5.1). */
export class KeyStore {
  constructor(private readonly db: Db) {}

  async insert(careId: number, appKey: string, secretHash: string, now: Date): Promise<void> {
    await this.db
      .insertInto('api_keys')
      .values({ app_key: appKey, care_id: careId, secret_hash: secretHash, created_at: now.getTime(), revoked_at: null })
      .execute();
  }

  /** The key if it exists and is not revoked. */
  async findActive(appKey: string): Promise<ApiKeyRecord | undefined> {
    const row = await this.db
      .selectFrom('api_keys')
      .select(['app_key', 'care_id', 'secret_hash'])
      .where('app_key', '=', appKey)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    return row && { appKey: row.app_key, careId: row.care_id, secretHash: row.secret_hash };
  }

  async listForClinic(careId: number): Promise<ApiKeySummary[]> {
    const rows = await this.db
      .selectFrom('api_keys')
      .select(['app_key', 'created_at', 'revoked_at'])
      .where('care_id', '=', careId)
      .orderBy('created_at')
      .execute();
    return rows.map((row) => ({
      app_key: row.app_key,
      created_at: new Date(Number(row.created_at)).toISOString(),
      revoked_at: row.revoked_at === null ? null : new Date(Number(row.revoked_at)).toISOString(),
    }));
  }

  /** Revokes a key and deletes its tokens at once; false when there was no active key. */
  async revoke(appKey: string, now: Date): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const result = await trx
        .updateTable('api_keys')
        .set({ revoked_at: now.getTime() })
        .where('app_key', '=', appKey)
        .where('revoked_at', 'is', null)
        .executeTakeFirst();
      await trx.deleteFrom('access_tokens').where('app_key', '=', appKey).execute();
      return Number(result.numUpdatedRows) > 0;
    });
  }
}
