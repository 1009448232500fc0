import type { Engine } from '../../../../platform/database/database-url.js';
import { OutboxStore } from '../../../../bff/outbox/outbox-store.js';
import { openSitesDatabase, type SitesDatabase } from '../../../../bff/sites/sites-database.js';
import { sitesTestDatabase, type SitesTestDatabase } from '../../sites/support/sites-test-database.js';

export interface OutboxDatabase {
  testDb: SitesTestDatabase;
  database: SitesDatabase;
  store: OutboxStore;
  /** Another connection to the same database, as a second BFF process would have; closed with the rest. */
  connect(): Promise<{ database: SitesDatabase; store: OutboxStore }>;
  close(): Promise<void>;
}

/** A BFF database of the caller's own (a SQLite file, or a PostgreSQL database), migrated, with an OutboxStore on it. */
export async function outboxDatabase(engine: Engine): Promise<OutboxDatabase> {
  const testDb = await sitesTestDatabase(engine);
  const opened: SitesDatabase[] = [];
  const connect = async () => {
    const database = await openSitesDatabase(testDb.url);
    opened.push(database);
    return { database, store: new OutboxStore(database.db, database.engine) };
  };
  const { database, store } = await connect();
  let closing: Promise<void> | undefined;
  return {
    testDb,
    database,
    store,
    connect,
    close: () =>
      (closing ??= (async () => {
        for (const each of opened) await each.close();
        await testDb.remove();
      })()),
  };
}
