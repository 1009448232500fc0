import { Migrator, type Kysely, type Migration, type MigrationProvider } from 'kysely';
import type { Engine } from './engine.js';
import { initial } from './migrations/001-initial.js';
import { appointmentLengths } from './migrations/002-appointment-lengths.js';

/** Every migration in order, written for the engine it runs on; names sort in the order they run. */
function migrations(engine: Engine): Record<string, Migration> {
  return {
    '001-initial': initial(engine),
    '002-appointment-lengths': appointmentLengths,
  };
}

/**
 * Brings the schema up to date; runs at every start-up and is a no-op when
 * current. Several processes starting at once are safe: Kysely's Migrator
 * holds a lock (an advisory lock on PostgreSQL, the write lock on SQLite).
 */
export async function migrateToLatest(db: Kysely<unknown>, engine: Engine): Promise<void> {
  const provider: MigrationProvider = { getMigrations: async () => migrations(engine) };
  const { error, results } = await new Migrator({ db, provider }).migrateToLatest();
  const failed = results?.find((result) => result.status === 'Error');
  if (error || failed) {
    const name = failed ? ` (${failed.migrationName})` : '';
    throw new Error(`Database migration failed${name}: ${error instanceof Error ? error.message : String(error)}`);
  }
}
