import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSqlite, type OpenedSqlite } from '../../../server/db/sqlite.js';
import { UnchangedReads } from '../../../server/db/performance/unchanged-reads.js';

/**
 * How UnchangedReads learns of changes (server/db/performance/unchanged-reads.ts), on a
 * SQLite file: `read` looks at data_version every time; `readAsOfThisTurn`
 * trusts a look taken earlier in the same turn of the event loop (a request's
 * token lookup) and looks again in the next turn; a write through its own
 * connection counts at once, one through any other as another process's.
 */
const SETTINGS = { synchronous: 'FULL' } as const;

let dir: string;
let path: string;
let opened: OpenedSqlite;
let kept: UnchangedReads;
/** A connection this process knows nothing of, as another process's is. */
let stranger: SQLite.Database;

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'database-changes-'));
  path = join(dir, 'changes.db');
  opened = openSqlite(path, SETTINGS);
  kept = new UnchangedReads(opened.changes);
  stranger = new SQLite(path);
  stranger.exec("create table notes (id integer primary key, name text not null); insert into notes values (1, 'Before')");
  await nextTurn();
});

afterEach(async () => {
  stranger.close();
  await opened.db.destroy();
  rmSync(dir, { recursive: true, force: true });
});

/** The note's name, read through the reads kept while the file is unchanged. */
const nameOf = (read: 'read' | 'readAsOfThisTurn') =>
  kept[read]('note:1', async () => {
    const { rows } = await sql<{ name: string }>`select name from notes where id = 1`.execute(opened.db);
    return rows[0]?.name;
  });

/** Renames the note through one of this process's connections (its statement cache notes the write). */
const rename = (through: OpenedSqlite, name: string) => sql`update notes set name = ${name} where id = 1`.execute(through.db);

describe('what the kept reads see of a change', () => {
  it('read: a commit by another process, at once', async () => {
    expect(await nameOf('read')).toBe('Before');
    stranger.exec("update notes set name = 'After' where id = 1");
    expect(await nameOf('read')).toBe('After');
  });

  it('readAsOfThisTurn: a commit by another process after the look taken in this turn, from the next turn on', async () => {
    expect(await nameOf('read')).toBe('Before');
    stranger.exec("update notes set name = 'After' where id = 1");

    // The request's own look came before this commit: the same turn trusts it.
    expect(await nameOf('readAsOfThisTurn')).toBe('Before');
    await nextTurn();
    expect(await nameOf('readAsOfThisTurn')).toBe('After');
  });

  it('readAsOfThisTurn: a commit by another process before the look taken in this turn', async () => {
    expect(await nameOf('readAsOfThisTurn')).toBe('Before');
    await nextTurn();
    stranger.exec("update notes set name = 'After' where id = 1");
    expect(await nameOf('read')).toBe('After');
    expect(await nameOf('readAsOfThisTurn')).toBe('After');
  });

  it('both: a write through its own connection, at once, in the same turn (SQLite does not count those in data_version)', async () => {
    expect(await nameOf('read')).toBe('Before');
    await rename(opened, 'After');
    expect(await nameOf('readAsOfThisTurn')).toBe('After');
    await rename(opened, 'Again');
    expect(await nameOf('read')).toBe('Again');
  });

  it("a write through another connection of this process: as another process's, for two databases share nothing", async () => {
    const second = openSqlite(path, SETTINGS);
    try {
      expect(await nameOf('read')).toBe('Before');
      await rename(second, 'After');

      // Not counted by this database: the turn's look is trusted, as after another process's commit.
      expect(await nameOf('readAsOfThisTurn')).toBe('Before');
      expect(await nameOf('read')).toBe('After');
    } finally {
      await second.db.destroy();
    }
  });
});
