import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../../server/db/connection.js';
import { REPO_ROOT } from '../support/server-process.js';
import { createTestDatabase, TEST_ENGINE } from '../support/test-database.js';

/** Opens the database in a process of its own, as a server or the CLI does at start-up; its error, if any. */
async function openInProcess(databaseUrl: string): Promise<string | undefined> {
  try {
    await promisify(execFile)(process.execPath, ['--import', 'tsx', 'test/server/support/open-database-main.ts'], {
      cwd: REPO_ROOT,
      env: { ...process.env, DATABASE_URL: databaseUrl },
    });
    return undefined;
  } catch (error) {
    return (error as { stderr?: string }).stderr?.trim() || String(error);
  }
}

describe(`migrations on ${TEST_ENGINE}`, () => {
  // Before migrations ran in a transaction on SQLite, about one start in three of two processes on a
  // new file failed ("table clinics already exists"). Three rounds of three processes.
  it('let several processes start at once on a new database: one migrates, the others wait and find it done', { timeout: 90_000 }, async () => {
    for (let round = 0; round < 3; round++) {
      const database = await createTestDatabase();
      try {
        const errors = await Promise.all([1, 2, 3].map(() => openInProcess(database.url)));
        expect(errors).toEqual([undefined, undefined, undefined]);

        const db = await openDatabase(database.url);
        const applied = await db.selectFrom('kysely_migration' as never).select('name' as never).execute();
        await db.destroy();
        expect(applied).toEqual([{ name: '001-initial' }]);
      } finally {
        await database.remove();
      }
    }
  });
});
