import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../../server/db/connection.js';
import type { Database } from '../../../server/db/database.js';
import { createTestDatabase, TEST_ENGINE, type TestDatabase } from '../support/test-database.js';

/**
 * Guard of a hot-path trick (docs/performance.md): server/db/performance/prepared-statements.ts
 * names each query text so node-postgres prepares it once per connection. It relies
 * on Kysely's PostgreSQL driver calling `client.query(text, values)` with the SQL as a
 * string; if an upgrade passes anything else, the queries run unnamed again and this
 * fails, rather than the benchmark quietly losing the gain.
 */
describe.runIf(TEST_ENGINE === 'postgres')('prepared statements on PostgreSQL', () => {
  let database: TestDatabase;
  let opened: Database | undefined;
  afterEach(async () => {
    await opened?.kysely.destroy();
    await database?.remove();
  });

  it("names the stores' queries, so the connection holds them prepared after the first run", async () => {
    database = await createTestDatabase('postgres');
    opened = await openDatabase(
      { url: database.url, poolSize: 1, connectTimeoutMs: 5_000, statementTimeoutMs: 5_000, sqliteSynchronous: 'FULL' },
    );
    const query = () => opened!.kysely.selectFrom('clinics').select('care_id').where('care_id', '=', 1).execute();
    await query();
    await query();
    // One connection in the pool: this runs on the session that prepared the query.
    const { rows } = await sql<{ name: string; statement: string }>`select name, statement from pg_prepared_statements`.execute(opened.kysely);
    const prepared = rows.find((row) => /from "clinics"/.test(row.statement));
    expect(prepared?.name).toMatch(/^clinic_\d+$/);
  });
});
