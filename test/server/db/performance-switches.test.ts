import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import type { Database } from '../../../server/db/database.js';
import { ALL_TRICKS_ON, type PerformanceSwitches } from '../../../server/db/performance/switches.js';
import { createTestDatabase, openTestDatabase, TEST_ENGINE, type TestDatabase } from '../support/test-database.js';

/**
 * The database's tricks are switched off only by bench/tricks.bench.mjs, to
 * measure what each gains; off, each must be the library's plain way, and
 * absent, every one is on (the server and the CLI).
 */
const without = (trick: keyof PerformanceSwitches): PerformanceSwitches => ({ ...ALL_TRICKS_ON, [trick]: false });

let database: TestDatabase | undefined;
let opened: Database | undefined;
afterEach(async () => {
  await opened?.kysely.destroy();
  await database?.remove();
  opened = undefined;
  database = undefined;
});

async function open(performance?: PerformanceSwitches): Promise<Database> {
  database ??= await createTestDatabase();
  await opened?.kysely.destroy();
  // One PostgreSQL connection: pg_prepared_statements shows the session that ran the queries.
  opened = await openTestDatabase(database.url, { sqliteSynchronous: 'FULL', poolSize: 1 }, performance ? { performance } : {});
  return opened;
}

describe.runIf(TEST_ENGINE === 'sqlite')('the performance switches on SQLite', () => {
  it('are all on when none is given: kept reads, and SQLite’s own FULL inside COMMIT', async () => {
    const all = await open();
    const { rows } = await sql<{ synchronous: number }>`pragma synchronous`.execute(all.kysely);
    expect(all.changes).toBeDefined();
    expect(rows[0]!.synchronous).toBe(2);
  });

  it('unchangedReads off: no change counter, so the stores query on every read', async () => {
    expect((await open(without('unchangedReads'))).changes).toBeUndefined();
  });

});

describe.runIf(TEST_ENGINE === 'postgres')('the performance switches on PostgreSQL', () => {
  const preparedAfterTwoRuns = async (performance?: PerformanceSwitches) => {
    const db = await open(performance);
    const query = () => db.kysely.selectFrom('clinics').select('care_id').where('care_id', '=', 1).execute();
    await query();
    await query();
    const { rows } = await sql<{ statement: string }>`select statement from pg_prepared_statements`.execute(db.kysely);
    return rows.filter((row) => /from "clinics"/.test(row.statement)).length;
  };

  it('preparedStatements off: Kysely’s unnamed queries, nothing held prepared', async () => {
    expect(await preparedAfterTwoRuns(without('preparedStatements'))).toBe(0);
    expect(await preparedAfterTwoRuns()).toBe(1);
  });
});

describe(`the precompiledQueries switch (${TEST_ENGINE})`, () => {
  it('off: no precompiled queries, so the stores have Kysely build each query (BUILT_EACH_TIME)', async () => {
    expect((await open()).precompiled).toBeDefined();
    expect((await open(without('precompiledQueries'))).precompiled).toBeUndefined();
  });
});
