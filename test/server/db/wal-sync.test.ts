import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { WalSyncer, type SyncKind } from '../../../server/db/performance/wal-sync.js';
import { openTestDatabase, removeSqliteFolder, TEST_ENGINE, tempDbPath } from '../support/test-database.js';

/** A sync function the test finishes by hand, recording what was synced and in which order. */
function manualSync() {
  const calls: { path: string; kind: SyncKind; finish: () => void }[] = [];
  const sync = (path: string, kind: SyncKind) => new Promise<void>((resolve) => calls.push({ path, kind, finish: resolve }));
  return { calls, sync };
}
const settled = async (promise: Promise<unknown>) => {
  let done = false;
  void promise.then(() => (done = true));
  await new Promise((resolve) => setImmediate(resolve));
  return done;
};

describe('WalSyncer', () => {
  it('fdatasyncs the WAL, and the first time the folder that holds it', async () => {
    const { calls, sync } = manualSync();
    const syncer = new WalSyncer('/srv/clinic/clinic.db', sync);

    const first = syncer.sync();
    calls[0]!.finish();
    await new Promise((resolve) => setImmediate(resolve));
    calls[1]!.finish();
    await first;
    const second = syncer.sync();
    calls[2]!.finish();
    await second;

    expect(calls.map(({ path, kind }) => `${kind} ${path}`)).toEqual([
      'file /srv/clinic/clinic.db-wal',
      'folder /srv/clinic',
      'file /srv/clinic/clinic.db-wal',
    ]);
  });

  it('answers a call made while a sync runs only after a sync that started after it', async () => {
    const { calls, sync } = manualSync();
    const syncer = new WalSyncer('/srv/clinic.db', sync);
    const early = syncer.sync();
    calls[0]!.finish(); // the WAL
    await new Promise((resolve) => setImmediate(resolve));
    const late = syncer.sync(); // while the folder sync of the first run is in flight

    calls[1]!.finish(); // the folder: the first run ends
    await early;
    expect(await settled(late)).toBe(false); // that run began before `late` was asked for

    calls[2]!.finish(); // the second run's WAL sync
    await late;
    expect(calls).toHaveLength(3);
  });

  it('lets every call made during one sync share the next one', async () => {
    const { calls, sync } = manualSync();
    const syncer = new WalSyncer('/srv/clinic.db', sync);
    const running = syncer.sync();
    const waiting = [syncer.sync(), syncer.sync(), syncer.sync()];

    calls[0]!.finish();
    await new Promise((resolve) => setImmediate(resolve));
    calls[1]!.finish();
    await running;
    await new Promise((resolve) => setImmediate(resolve));
    calls[2]!.finish();
    await Promise.all(waiting);

    expect(calls).toHaveLength(3); // one WAL sync for the three, not three
  });
});

describe.runIf(TEST_ENGINE === 'sqlite')('a SQLite database opened for the server (syncInBackground)', () => {
  const synchronousOf = async (url: string, sqliteSynchronous: 'FULL' | 'NORMAL', syncInBackground: boolean) => {
    const database = await openTestDatabase(url, { sqliteSynchronous }, { syncInBackground });
    const { rows } = await sql<{ synchronous: number }>`pragma synchronous`.execute(database.kysely);
    const background = database.afterCommit !== undefined;
    await database.kysely.destroy();
    return { synchronous: rows[0]!.synchronous, background };
  };

  it('leaves the WAL unsynced in COMMIT and syncs it before group commit answers; the CLI keeps FULL; NORMAL syncs neither', async () => {
    const path = tempDbPath();
    try {
      // SQLite's pragma synchronous: 1 is NORMAL, 2 is FULL.
      expect(await synchronousOf(`file:${path}`, 'FULL', true)).toEqual({ synchronous: 1, background: true });
      expect(await synchronousOf(`file:${path}`, 'FULL', false)).toEqual({ synchronous: 2, background: false });
      expect(await synchronousOf(`file:${path}`, 'NORMAL', true)).toEqual({ synchronous: 1, background: false });
    } finally {
      removeSqliteFolder(path);
    }
  });
});
