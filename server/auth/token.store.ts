import type { Db } from '../db/database.js';
import { BUILT_EACH_TIME, hotQuery, type HotQueries } from '../db/performance/precompiled-queries.js';
import { ALWAYS_QUERY, type HotReads } from '../db/performance/unchanged-reads.js';

export interface TokenOwner {
  appKey: string;
  careId: number;
}

/** The token check of every authenticated request: the key and clinic of an unrevoked token, and its expiry. */
export const UNREVOKED_TOKEN = hotQuery('unrevoked token', (db, { tokenHash, appKey }: { tokenHash: string; appKey: string }) =>
  db
    .selectFrom('access_tokens as t')
    .innerJoin('api_keys as k', 'k.app_key', 't.app_key')
    .select(['k.app_key', 'k.care_id', 't.expires_at'])
    .where('t.token_hash', '=', tokenHash)
    .where('t.app_key', '=', appKey)
    .where('k.revoked_at', 'is', null),
);

/** Access tokens, stored by SHA-256 only, each tied to the key it was issued to. */
export class TokenStore {
  /**
   * `reads`: how its hot reads are made; an app's kept reads (Stores.of), or without them a query each time.
   * `queries`: how its hot queries run (the database's precompiled ones, in the app).
   */
  constructor(
    private readonly db: Db,
    private readonly reads: HotReads = ALWAYS_QUERY,
    private readonly queries: HotQueries = BUILT_EACH_TIME,
  ) {}

  async insert(tokenHash: string, appKey: string, expiresAt: Date): Promise<void> {
    await this.db
      .insertInto('access_tokens')
      .values({ token_hash: tokenHash, app_key: appKey, expires_at: expiresAt.getTime() })
      .execute();
  }

  /**
   * The clinic a token acts for, when the token exists, was issued to this
   * same app key, has not expired and its key is not revoked. Asked on every
   * authenticated request, so the answer is kept while the database is
   * unchanged (a revocation is a change); expiry is checked on each call.
   */
  async findOwner(tokenHash: string, appKey: string, now: Date): Promise<TokenOwner | undefined> {
    const token = await this.reads.read(`token:${tokenHash}:${appKey}`, () => this.#findUnrevoked(tokenHash, appKey));
    return token && token.expiresAt > now.getTime() ? token.owner : undefined;
  }

  async #findUnrevoked(tokenHash: string, appKey: string): Promise<{ owner: TokenOwner; expiresAt: number } | undefined> {
    const [row] = await this.queries.rows(this.db, UNREVOKED_TOKEN, { tokenHash, appKey });
    return row && { owner: { appKey: row.app_key, careId: row.care_id }, expiresAt: Number(row.expires_at) };
  }

  /**
   * Deletes the tokens of `appKey` beyond the newest `keep` (the newest by
   * expiry, which every token reaches the same time after its issue), never
   * `issued`, the one just issued: they answer 401 from the next request on.
   */
  async keepNewest(appKey: string, issued: string, keep: number): Promise<void> {
    const newestOthers = this.db
      .selectFrom('access_tokens')
      .select('token_hash')
      .where('app_key', '=', appKey)
      .where('token_hash', '<>', issued)
      .orderBy('expires_at', 'desc')
      .orderBy('token_hash', 'desc')
      .limit(keep - 1);
    await this.db
      .deleteFrom('access_tokens')
      .where('app_key', '=', appKey)
      .where('token_hash', '<>', issued)
      .where('token_hash', 'not in', newestOthers)
      .execute();
  }

  async deleteExpired(now: Date): Promise<void> {
    await this.db.deleteFrom('access_tokens').where('expires_at', '<=', now.getTime()).execute();
  }
}
