import { sql } from 'kysely';
import type { Db } from '../db/database.js';
import type { Engine } from '../db/engine.js';
import { BUILT_EACH_TIME, hotQuery, type HotQueries } from '../db/performance/precompiled-queries.js';
import type { IdempotencyKeysTable } from '../db/schema.js';

/** How long an Idempotency-Key is remembered, as with Stripe. */
export const IDEMPOTENCY_WINDOW_MS = 24 * 60 * 60 * 1000;

export interface StoredAnswer {
  requestHash: string;
  status: number;
  body: unknown;
}

/** PostgreSQL: the lock on a clinic's Idempotency-Key (find). */
export const KEY_LOCK = hotQuery('idempotency key lock', (_db, { careId, key }: { careId: number; key: string }) =>
  sql`select pg_advisory_xact_lock(${careId}, hashtext(${key}))`,
);

/** find's query: the answer stored for a key since `after` (ms). */
export const STORED_ANSWER = hotQuery('stored answer', (db, { careId, key, after }: { careId: number; key: string; after: number }) =>
  db
    .selectFrom('idempotency_keys')
    .select(['request_hash', 'status_code', 'response_json'])
    .where('care_id', '=', careId)
    .where('idempotency_key', '=', key)
    .where('created_at', '>', after),
);

/** A stored answer's columns, each its own parameter, from `row` (which may carry more: SAVED_ANSWER's expiredBy). */
const answerColumns = (row: IdempotencyKeysTable): IdempotencyKeysTable => ({
  care_id: row.care_id,
  idempotency_key: row.idempotency_key,
  request_hash: row.request_hash,
  status_code: row.status_code,
  response_json: row.response_json,
  created_at: row.created_at,
});

/** SQLite, save: the keys past their window, up to `expiredBy` (ms), forgotten. */
export const EXPIRED_KEYS = hotQuery('expired keys', (db, { expiredBy }: { expiredBy: number }) =>
  db.deleteFrom('idempotency_keys').where('created_at', '<=', expiredBy),
);

/** SQLite, save: the answer stored. */
export const NEW_ANSWER = hotQuery('new answer', (db, row: IdempotencyKeysTable) => db.insertInto('idempotency_keys').values(answerColumns(row)));

/** PostgreSQL, save in one statement: the expired keys but this one deleted, the answer stored or this key's replaced. */
export const SAVED_ANSWER = hotQuery('saved answer', (db, row: IdempotencyKeysTable & { expiredBy: number }) =>
  db
    .with('expired', (expired) =>
      expired
        .deleteFrom('idempotency_keys')
        .where('created_at', '<=', row.expiredBy)
        .where((eb) => eb.not(eb.and([eb('care_id', '=', row.care_id), eb('idempotency_key', '=', row.idempotency_key)]))),
    )
    .insertInto('idempotency_keys')
    .values(answerColumns(row))
    .onConflict((conflict) =>
      conflict.columns(['care_id', 'idempotency_key']).doUpdateSet((eb) => ({
        request_hash: eb.ref('excluded.request_hash'),
        status_code: eb.ref('excluded.status_code'),
        response_json: eb.ref('excluded.response_json'),
        created_at: eb.ref('excluded.created_at'),
      })),
    ),
);

/** The first answer given to each Idempotency-Key of a clinic, kept for 24 hours. */
export class IdempotencyStore {
  /** `queries`: how its hot queries run (the database's precompiled ones, in the app). */
  constructor(
    private readonly db: Db,
    private readonly engine: Engine,
    private readonly queries: HotQueries = BUILT_EACH_TIME,
  ) {}

  /**
   * The answer stored for this key, if any. Call it inside the transaction
   * that will save the answer: on PostgreSQL it first takes a transaction lock
   * on the key, so a concurrent request with the same key (in this process or
   * another) waits until this transaction ends and then finds its answer,
   * instead of booking a second time. (On SQLite the write lock, taken at
   * BEGIN IMMEDIATE, already serialises every booking.)
   */
  async find(careId: number, key: string, now: Date): Promise<StoredAnswer | undefined> {
    if (this.engine === 'postgres') await this.queries.rows(this.db, KEY_LOCK, { careId, key });
    const [row] = await this.queries.rows(this.db, STORED_ANSWER, { careId, key, after: now.getTime() - IDEMPOTENCY_WINDOW_MS });
    return row && { requestHash: row.request_hash, status: row.status_code, body: JSON.parse(row.response_json) };
  }

  /**
   * Records the answer, and forgets every key past its window. Called after
   * find() in the same transaction, so a row this key already has is one past
   * its window (find() would have answered it otherwise): it is replaced.
   *
   * On PostgreSQL in one statement, a round trip less per booking: the
   * expired keys are deleted in a WITH, every one but this key's, whose row
   * the insert replaces instead (ON CONFLICT DO UPDATE); the two never touch
   * the same row, which one statement may not do. SQLite has no DELETE in a
   * WITH, and a statement there costs no round trip: the delete comes first.
   */
  async save(careId: number, key: string, answer: StoredAnswer, now: Date): Promise<void> {
    const expiredBy = now.getTime() - IDEMPOTENCY_WINDOW_MS;
    const row = {
      care_id: careId,
      idempotency_key: key,
      request_hash: answer.requestHash,
      status_code: answer.status,
      response_json: JSON.stringify(answer.body),
      created_at: now.getTime(),
    };
    if (this.engine === 'sqlite') {
      await this.queries.rows(this.db, EXPIRED_KEYS, { expiredBy });
      await this.queries.rows(this.db, NEW_ANSWER, row);
      return;
    }
    await this.queries.rows(this.db, SAVED_ANSWER, { ...row, expiredBy });
  }
}
