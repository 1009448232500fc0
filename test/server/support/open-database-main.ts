// Run as a process of its own (`node --import tsx test/server/support/open-database-main.ts`): opens
// DATABASE_URL as the server does at start-up (migrations included), closes it, and exits 0, or
// prints the error and exits 1.
import { openDatabase } from '../../../server/db/connection.js';

try {
  const db = await openDatabase(process.env.DATABASE_URL ?? '');
  await db.destroy();
} catch (error) {
  console.error(error instanceof Error ? error.message : String(error));
  process.exitCode = 1;
}
