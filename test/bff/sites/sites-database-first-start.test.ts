import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { entryPointArgs } from '../../support/entry-point.js';
import { openSitesDatabase } from '../../../bff/sites/sites-database.js';

const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const folder = mkdtempSync(join(tmpdir(), 'bff-first-start-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** One process opening the database: its exit code and what it wrote on stderr. */
function openInProcess(databaseUrl: string): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, entryPointArgs('test/bff/sites/support/open-database-process.ts'), {
    cwd: REPO_ROOT,
    env: { PATH: process.env.PATH ?? '', DATABASE_URL: databaseUrl },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, stderr })));
}

describe('BFF instances started together on one new SQLite file', () => {
  // Before the migrations held the file's write lock, 3 in 20 such starts failed ("table sites already exists").
  it('all migrate it, one after another under its lock, and none fails', async () => {
    for (let round = 0; round < 4; round++) {
      const url = `file:${join(folder, `round-${round}.db`)}`;
      const results = await Promise.all([openInProcess(url), openInProcess(url), openInProcess(url)]);

      expect(results).toEqual([
        { code: 0, stderr: '' },
        { code: 0, stderr: '' },
        { code: 0, stderr: '' },
      ]);
      const database = await openSitesDatabase(url);
      const migrations = await database.db.selectFrom('bff_migration' as never).select('name' as never).execute();
      await database.close();
      expect(migrations.map((row) => (row as { name: string }).name)).toEqual(['001-sites', '002-site-version', '003-notifications', '004-patient-mail']);
    }
  });
});
