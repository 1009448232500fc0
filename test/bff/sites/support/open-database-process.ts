// Opens (and so migrates) the BFF database at DATABASE_URL, then closes it: one process of
// sites-database-first-start.test.ts, several of which start together on one new SQLite file.
import { openSitesDatabase } from '../../../../bff/sites/sites-database.js';

try {
  const database = await openSitesDatabase(process.env.DATABASE_URL!);
  await database.close();
} catch (error) {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
}
