import {
  CompiledQuery,
  SqliteAdapter,
  SqliteDialect,
  SqliteDriver,
  type DatabaseConnection,
  type DialectAdapter,
  type Driver,
  type SqliteDialectConfig,
} from 'kysely';

/**
 * Kysely's SQLite driver opens transactions with a plain (deferred) BEGIN: the
 * write lock is taken at the first write, and when another process committed
 * since this transaction's first read, SQLite cannot upgrade it and answers
 * SQLITE_BUSY at once, whatever the busy timeout (a 500 for a booking). BEGIN
 * IMMEDIATE takes the write lock up front, waiting for it under busy_timeout,
 * so several processes on one file (two servers, or the CLI beside the server)
 * queue for it instead of failing.
 */
class ImmediateSqliteDriver extends SqliteDriver {
  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }
}

/**
 * Kysely's SQLite adapter says SQLite has no transactional DDL, so its
 * Migrator runs SQLite migrations outside any transaction and, SQLite having
 * no migration lock either, two processes starting at once on a new file both
 * run them (the second fails: "table clinics already exists"), and a crash
 * midway leaves half a schema. SQLite does run DDL in transactions: said so,
 * every migration runs in one transaction, begun IMMEDIATE, so a second
 * process waits for the first one's migrations and then finds them done.
 */
class TransactionalDdlSqliteAdapter extends SqliteAdapter {
  override get supportsTransactionalDdl(): boolean {
    return true;
  }
}

/** SqliteDialect whose transactions begin with BEGIN IMMEDIATE, and whose migrations run in one. */
export class ImmediateSqliteDialect extends SqliteDialect {
  readonly #config: SqliteDialectConfig;

  constructor(config: SqliteDialectConfig) {
    super(config);
    this.#config = config;
  }

  override createDriver(): Driver {
    return new ImmediateSqliteDriver(this.#config);
  }

  override createAdapter(): DialectAdapter {
    return new TransactionalDdlSqliteAdapter();
  }
}
