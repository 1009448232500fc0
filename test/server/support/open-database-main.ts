// Run as a process of its own (`node --import tsx test/server/support/open-database-main.ts`): opens
// DATABASE_URL as the server does at start-up (migrations included), closes it, and exits 0, or
// prints the error and exits 1.
import { openTestDatabase } from './test-database.js';

try {
  const database = await openTestDatabase(process.env.DATABASE_URL ?? '');
  await database.kysely.destroy();
} catch (error) {
  console.error(error instanceof Error ? error.message : String(error));
  process.exitCode = 1;
}
