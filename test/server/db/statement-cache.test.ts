import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect, type SqliteDatabase } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { withStatementCache, withWriteNotes } from '../../../server/db/performance/statement-cache.js';

/**
 * Guard of a hot-path trick (docs/performance.md): server/db/performance/statement-cache.ts
 * keeps statements by their text. It pays only because Kysely's SQLite driver
 * asks for a statement on every query, with the same text for the same query
 * shape; and kept reads learn of writes from better-sqlite3's `readonly`. An
 * upgrade that changes either fails here, not as a quiet loss of the gain or a
 * stale read.
 */

interface Items {
  items: { id: number; name: string };
}

let opened: SQLite.Database[] = [];
afterEach(() => {
  for (const sqlite of opened) sqlite.close();
  opened = [];
});

function memoryDatabase(): SQLite.Database {
  const sqlite = new SQLite(':memory:');
  opened.push(sqlite);
  sqlite.exec('create table items (id integer primary key, name text not null)');
  return sqlite;
}

/** A database for Kysely that notes every text it is asked to prepare. */
function notingPrepares(sqlite: SQLite.Database, prepared: string[]): SqliteDatabase {
  return {
    close: () => undefined,
    prepare: (sql: string) => {
      prepared.push(sql);
      return sqlite.prepare(sql);
    },
  };
}

describe('what the statement cache relies on', () => {
  it('Kysely’s SQLite driver asks for a statement on every query, with one text per query shape', async () => {
    const prepared: string[] = [];
    const db = new Kysely<Items>({ dialect: new SqliteDialect({ database: notingPrepares(memoryDatabase(), prepared) }) });
    await db.insertInto('items').values({ id: 1, name: 'a' }).execute();
    await db.insertInto('items').values({ id: 2, name: 'b' }).execute();
    const byId = (id: number) => db.selectFrom('items').selectAll().where('id', '=', id).execute();
    expect(await byId(1)).toEqual([{ id: 1, name: 'a' }]);
    expect(await byId(2)).toEqual([{ id: 2, name: 'b' }]);

    expect(prepared).toHaveLength(4);
    expect(prepared[0]).toBe(prepared[1]);
    expect(prepared[2]).toBe(prepared[3]);
    expect(prepared[0]).not.toBe(prepared[2]);
  });

  it.each([
    ['select * from items where id = ?', true],
    ['begin', true],
    ['commit', true],
    ['insert into items (id, name) values (?, ?)', false],
    ['insert into items (id, name) values (?, ?) returning id', false],
    ['update items set name = ? where id = ?', false],
    ['delete from items where id = ?', false],
  ])('better-sqlite3 calls `%s` readonly: %s', (sql, readonly) => {
    const sqlite = memoryDatabase();
    expect(sqlite.prepare(sql).readonly).toBe(readonly);
  });
});

describe('withStatementCache and withWriteNotes', () => {
  it('keeps one statement per text, and tells of a write before it runs', () => {
    const sqlite = memoryDatabase();
    let writes = 0;
    const cached = withStatementCache(sqlite, { onWrite: () => writes++ });
    const select = 'select * from items where id = ?';
    expect(cached.prepare(select)).toBe(cached.prepare(select));

    cached.prepare('insert into items (id, name) values (?, ?)').run([1, 'a']);
    expect(writes).toBe(1);
    cached.prepare(select).all([1]);
    expect(writes).toBe(1);
  });

  it('with the cache off, prepares each query afresh and still tells of every write', () => {
    const sqlite = memoryDatabase();
    let writes = 0;
    const plain = withWriteNotes(sqlite, () => writes++);
    const select = 'select * from items where id = ?';
    expect(plain.prepare(select)).not.toBe(plain.prepare(select));

    plain.prepare('insert into items (id, name) values (?, ?)').run([1, 'a']);
    expect(writes).toBe(1);
    expect(withWriteNotes(sqlite, undefined)).toBe(sqlite);
  });
});
