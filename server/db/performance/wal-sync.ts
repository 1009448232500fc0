import { open } from 'node:fs/promises';
import { dirname } from 'node:path';

/** What is synced: a file's data (fdatasync), or a folder's entries (fsync). */
export type SyncKind = 'file' | 'folder';

/** Syncs through libuv's thread pool, never on the event loop. */
async function syncPath(path: string, kind: SyncKind): Promise<void> {
  const handle = await open(path, 'r');
  try {
    await (kind === 'file' ? handle.datasync() : handle.sync());
  } finally {
    await handle.close();
  }
}

/**
 * Makes a SQLite database's committed transactions durable off the event
 * loop. With synchronous=FULL, SQLite fsyncs the WAL inside every COMMIT, and
 * better-sqlite3 being synchronous, the whole process waits on the disk for
 * it (a millisecond or two each time, measured here). Instead the server runs
 * SQLite with synchronous=NORMAL (a COMMIT writes the WAL without syncing it;
 * still safe against corruption) and, before a booking is acknowledged,
 * fdatasyncs the WAL file in the thread pool: the same guarantee as FULL for
 * what is acknowledged, while the event loop serves the next requests.
 *
 * sync() resolves once an fdatasync that started after the call has finished,
 * so it covers every COMMIT made before the call; calls that arrive while one
 * runs share the next one.
 */
export class WalSyncer {
  private inFlight: Promise<void> | undefined;
  private queued: Promise<void> | undefined;
  private folderSynced = false;

  constructor(
    private readonly databasePath: string,
    private readonly syncOf: (path: string, kind: SyncKind) => Promise<void> = syncPath,
  ) {}

  sync(): Promise<void> {
    if (this.queued) return this.queued;
    if (!this.inFlight) return this.start();
    this.queued = this.inFlight
      .catch(() => undefined)
      .then(() => {
        this.queued = undefined;
        return this.start();
      });
    return this.queued;
  }

  private start(): Promise<void> {
    const run = this.syncOnce().finally(() => {
      if (this.inFlight === run) this.inFlight = undefined;
    });
    this.inFlight = run;
    return run;
  }

  private async syncOnce(): Promise<void> {
    await this.syncOf(`${this.databasePath}-wal`, 'file');
    // The WAL's name in its folder must survive a power cut too (SQLite's FULL syncs the folder once).
    if (!this.folderSynced) {
      await this.syncOf(dirname(this.databasePath), 'folder');
      this.folderSynced = true;
    }
  }
}
