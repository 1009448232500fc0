import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect, sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GroupCommitter } from '../../../server/db/group-commit.js';
import type { Db } from '../../../server/db/connection.js';
import { removeDb, tempDbPath } from '../support/test-server.js';

describe('GroupCommitter', () => {
  let path: string;
  let db: Db;
  let statements: string[];

  beforeEach(async () => {
    path = tempDbPath();
    statements = [];
    db = new Kysely({
      dialect: new SqliteDialect({ database: new SQLite(path) }),
      log: (event) => {
        statements.push(event.query.sql.toLowerCase());
      },
    }) as unknown as Db;
    await sql`create table notes (id integer primary key, text text not null unique)`.execute(db);
    statements.length = 0;
  });
  afterEach(async () => {
    await db.destroy();
    removeDb(path);
  });

  const insert = (text: string) => (trx: Db) =>
    sql`insert into notes (text) values (${text})`.execute(trx).then(() => text);
  const texts = async () => (await sql<{ text: string }>`select text from notes order by id`.execute(db)).rows.map((r) => r.text);

  it('commits units that arrive together in one transaction', async () => {
    const committer = new GroupCommitter(db);
    const results = await Promise.all(['a', 'b', 'c', 'd'].map((text) => committer.run(insert(text))));

    expect(results).toEqual(['a', 'b', 'c', 'd']);
    expect(await texts()).toEqual(['a', 'b', 'c', 'd']);
    expect(statements.filter((s) => s === 'commit')).toHaveLength(1);
  });

  it('rolls back a failing unit alone and rejects only its promise', async () => {
    const committer = new GroupCommitter(db);
    const outcomes = await Promise.allSettled([
      committer.run(insert('first')),
      committer.run(async (trx) => {
        await insert('doomed')(trx);
        throw new Error('rule broken');
      }),
      committer.run(insert('first')), // a unique violation inside the batch
      committer.run(insert('last')),
    ]);

    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'rejected', 'fulfilled']);
    expect(await texts()).toEqual(['first', 'last']);
  });

  it('settles no unit before its transaction is committed', async () => {
    const committer = new GroupCommitter(db);
    const seenAtSettle: string[][] = [];
    const units = ['x', 'y'].map((text) =>
      committer.run(insert(text)).then(() => seenAtSettle.push([...statements])),
    );
    await Promise.all(units);

    for (const seen of seenAtSettle) expect(seen).toContain('commit');
  });

  it('keeps working after a batch whose commit fails', async () => {
    const committer = new GroupCommitter(db);
    await expect(committer.run((trx) => sql`commit`.execute(trx).then(() => 'ended the transaction early'))).rejects.toThrow();
    expect(await committer.run(insert('after'))).toBe('after');
    expect(await texts()).toContain('after');
  });
});
