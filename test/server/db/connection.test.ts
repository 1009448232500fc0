import { Client } from 'pg';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadServerConfig } from '../../../server/config.js';
import type { Db } from '../../../server/db/database.js';
import { engineOfUrl } from '../../../server/db/engine.js';
import { SERVICES } from '../../support/services.js';
import { createTestDatabase, openTestDatabase, TEST_ENGINE, type TestDatabase } from '../support/test-database.js';
import { eventually } from '../../support/eventually.js';

describe('DATABASE_URL', () => {
  it.each([
    ['postgres://clinic@db.internal:5432/clinic', 'postgres'],
    ['postgresql://clinic@db.internal/clinic', 'postgres'],
    ['file:data/clinic.db', 'sqlite'],
    ['file:///srv/clinic.db', 'sqlite'],
    ['data/clinic.db', 'sqlite'],
  ])('%s is %s', (url, engine) => {
    expect(engineOfUrl(url)).toBe(engine);
    expect(loadServerConfig({ DATABASE_URL: url }).database.url).toBe(url);
  });

  it('keeps SQLite at data/clinic.db by default', () => {
    expect(loadServerConfig({}).database.url).toBe('file:data/clinic.db');
  });

  it('refuses another scheme by name, without printing the URL (it may hold a password)', () => {
    const attempt = () => loadServerConfig({ DATABASE_URL: 'mysql://clinic:pa55word@db/clinic' });
    expect(attempt).toThrow(/DATABASE_URL.*postgres:\/\//);
    expect(attempt).not.toThrow(/pa55word/);
  });
});

describe('DATABASE_POOL_SIZE', () => {
  it('is 10 unless set', () => {
    expect(loadServerConfig({}).database.poolSize).toBe(10);
    expect(loadServerConfig({ DATABASE_POOL_SIZE: '25' }).database.poolSize).toBe(25);
  });

  it.each(['0', '1', '2.5', 'many', '1000'])('refuses %s, naming the setting', (size) => {
    expect(() => loadServerConfig({ DATABASE_POOL_SIZE: size })).toThrow('DATABASE_POOL_SIZE');
  });
});

describe.each([
  ['DATABASE_CONNECT_TIMEOUT_MS', 'connectTimeoutMs'],
  ['DATABASE_STATEMENT_TIMEOUT_MS', 'statementTimeoutMs'],
] as const)('%s', (name, field) => {
  it('is 5000 unless set', () => {
    expect(loadServerConfig({}).database[field]).toBe(5000);
    expect(loadServerConfig({ [name]: '1500' }).database[field]).toBe(1500);
  });

  it.each(['0', '-1', '2.5', 'soon'])('refuses %s, naming the setting', (value) => {
    expect(() => loadServerConfig({ [name]: value })).toThrow(name);
  });
});

describe(`the database openDatabase opens (${TEST_ENGINE})`, () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database?.remove();
  });

  it('names its engine and how many connections it may hold, for the code that must differ by them', async () => {
    const opened = await openTestDatabase(database.url, { poolSize: 4 });
    try {
      expect({ engine: opened.engine, connections: opened.connections }).toEqual(
        TEST_ENGINE === 'postgres' ? { engine: 'postgres', connections: 4 } : { engine: 'sqlite', connections: 1 },
      );
      // Only SQLite tells cheaply whether anything changed, so only there may an app keep reads.
      expect(opened.changes !== undefined).toBe(TEST_ENGINE === 'sqlite');
    } finally {
      await opened.kysely.destroy();
    }
  });
});

describe.runIf(TEST_ENGINE === 'postgres')('a PostgreSQL database', () => {
  let database: TestDatabase;
  let db: Db;

  /** Runs one statement as the test server's administrator, outside the pool under test. */
  async function asAdmin<T extends object>(text: string, values: unknown[] = []): Promise<T[]> {
    const admin = new Client({ connectionString: SERVICES.postgres.url });
    await admin.connect();
    try {
      return (await admin.query<T>(text, values)).rows;
    } finally {
      await admin.end();
    }
  }
  const databaseName = () => new URL(database.url).pathname.slice(1);

  beforeAll(async () => {
    database = await createTestDatabase('postgres');
    // A database whose own default would acknowledge commits before they are on disk.
    await asAdmin(`alter database ${databaseName()} set synchronous_commit = off`);
    db = (await openTestDatabase(database.url, { poolSize: 3 })).kysely;
  });
  afterAll(async () => {
    await db?.destroy();
    await database?.remove();
  });

  it('gives bigint columns and counts back as numbers, as SQLite does', async () => {
    const now = Date.UTC(2026, 10, 23, 9, 0, 0, 123);
    const row = await sql<{ big: number; n: number }>`select ${now}::bigint as big, count(*) as n from clinics`.execute(db);

    expect(row.rows[0]).toEqual({ big: now, n: 0 });
  });

  it('opens at most DATABASE_POOL_SIZE connections, however many queries wait', async () => {
    // Nine queries that each wait for a lock a client of the test holds: the pool opens all it may, the rest queue in it.
    const LOCK = 71_117;
    const count = async (query: string) => Number((await asAdmin<{ n: string }>(query, [databaseName()]))[0]!.n);
    const sessions = () => count(`select count(*) as n from pg_stat_activity where datname = $1 and application_name = 'clinic-api'`);
    const waiting = () =>
      count(`select count(*) as n from pg_locks where locktype = 'advisory' and not granted and objid = ${LOCK} and database = (select oid from pg_database where datname = $1)`);
    const holder = new Client({ connectionString: database.url });
    await holder.connect();
    try {
      await holder.query('select pg_advisory_lock($1)', [LOCK]);
      const queries = Promise.all(Array.from({ length: 9 }, () => sql`select pg_advisory_xact_lock_shared(${LOCK}::bigint)`.execute(db)));

      await eventually(async () => expect(await waiting()).toBe(3));
      expect(await sessions()).toBe(3);

      await holder.query('select pg_advisory_unlock($1)', [LOCK]);
      await queries;
      expect(await sessions()).toBe(3);
    } finally {
      await holder.end();
    }
  });

  it('prepares each query text once per connection, and sends DDL and transaction control unprepared', async () => {
    const single = (await openTestDatabase(database.url, { poolSize: 1 })).kysely;
    try {
      for (const careId of [1, 2, 3]) await single.selectFrom('clinics').select('care_id').where('care_id', '=', careId).execute();
      await single.transaction().execute((trx) => trx.selectFrom('dentists').select('doctor_id').execute());

      const prepared = await sql<{ name: string; statement: string }>`select name, statement from pg_prepared_statements`.execute(single);
      const texts = prepared.rows.map((row) => row.statement);
      expect(texts.filter((text) => /from "clinics" where "care_id" = \$1/.test(text))).toHaveLength(1);
      expect(texts.filter((text) => /from "dentists"/.test(text))).toHaveLength(1);
      expect(prepared.rows.every((row) => row.name.startsWith('clinic_'))).toBe(true);
      expect(texts.some((text) => /^\s*(begin|commit|create|alter)/i.test(text))).toBe(false);
    } finally {
      await single.destroy();
    }
  });

  it('waits for the WAL flush of every commit, even where the database\'s default is not to (synchronous_commit)', async () => {
    const { rows } = await sql<{ synchronous_commit: string }>`show synchronous_commit`.execute(db);
    expect(rows[0]!.synchronous_commit).toBe('on');
  });
});
