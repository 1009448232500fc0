import type { Db } from '../db/connection.js';

export interface TokenOwner {
  appKey: string;
  careId: number;
}

/** Access tokens, stored by SHA-256 only, each tied to the key it was issued to. */
export class TokenStore {
  constructor(private readonly db: Db) {}

  async insert(tokenHash: string, appKey: string, expiresAt: Date): Promise<void> {
    await this.db
      .insertInto('access_tokens')
      .values({ token_hash: tokenHash, app_key: appKey, expires_at: expiresAt.getTime() })
      .execute();
  }

  /**
   * The clinic a token acts for, when the token exists, was issued to this
   * same app key, has not expired and its key is not revoked.
   */
  async findOwner(tokenHash: string, appKey: string, now: Date): Promise<TokenOwner | undefined> {
    const row = await this.db
      .selectFrom('access_tokens as t')
      .innerJoin('api_keys as k', 'k.app_key', 't.app_key')
      .select(['k.app_key', 'k.care_id'])
      .where('t.token_hash', '=', tokenHash)
      .where('t.app_key', '=', appKey)
      .where('t.expires_at', '>', now.getTime())
      .where('k.revoked_at', 'is', null)
      .executeTakeFirst();
    return row && { appKey: row.app_key, careId: row.care_id };
  }

  async deleteExpired(now: Date): Promise<void> {
    await this.db.deleteFrom('access_tokens').where('expires_at', '<=', now.getTime()).execute();
  }
}
