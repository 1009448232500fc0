import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, Migrator, PostgresDialect, sql, SqliteAdapter, SqliteDialect, type DialectAdapter, type Generated, type Migration } from 'kysely';
import pg from 'pg';
import { engineOfUrl, sqlitePathFromUrl, type Engine } from '../../platform/database/database-url.js';
import { sitesTable } from './migrations/001-sites.js';
import { siteVersion } from './migrations/002-site-version.js';
import { notificationTables } from './migrations/003-notifications.js';
import { patientMail } from './migrations/004-patient-mail.js';

/**
 * The BFF's own tables (decisions 0013 and 0018): the sites; the bookings this
 * BFF made and patients' change requests, until a week after each visit; the
 * outbox of messages to clinics.
 */
export interface SitesTables {
  sites: SiteRow;
  booking_records: BookingRecordRow;
  change_requests: ChangeRequestRow;
  outbox_messages: OutboxRow;
  patient_mail: PatientMailRow;
}

/**
 * Integers of ms since the epoch are `bigint` columns: PostgreSQL's driver
 * reads them as strings, so each reader turns them to numbers (Number()).
 */
type Millis = number | string;

/** A booking this BFF made: what a change request tells the clinic beside the status view. */
export interface BookingRecordRow {
  site_id: string;
  appointment_id: number | string;
  date: string;
  time: string;
  doctor_id: number | null;
  treatment_id: number | null;
  patient_phone: string | null;
  forget_at: Millis;
}

/** One change request: at most one per booking and kind (the primary key). */
export interface ChangeRequestRow {
  site_id: string;
  appointment_id: number | string;
  kind: 'cancel' | 'move';
  requested_at: Millis;
  /** move: JSON text of [{date, time}]; cancel: null. */
  preferred_starts: string | null;
  forget_at: Millis;
}

/** One message of the outbox, to one channel (bff/outbox/outbox-message.ts). */
export interface OutboxRow {
  id: string;
  site_id: string;
  channel: 'email' | 'webhook';
  event_type: string;
  /** The NotificationEvent as JSON text. */
  payload: string;
  state: 'pending' | 'delivered' | 'dead';
  attempts: Generated<number>;
  created_at: Millis;
  next_attempt_at: Millis;
  lease_owner: string | null;
  lease_until: Millis | null;
  finished_at: Millis | null;
  /** A short reason of the last failed try (a status code, a timeout); never a receiver's answer body. */
  last_error: string | null;
  /** When it first became due, if not when queued (a reminder); null: created_at. The give-up rule counts from it. */
  due_at: Millis | null;
  /** The booking it is about, for the patient's messages (withdrawn by booking); null for the clinic's. */
  appointment_id: number | string | null;
}

/** A patient who asked for e-mail about one booking: the address and its unsubscribe token (bff/patient-mail/). */
export interface PatientMailRow {
  site_id: string;
  appointment_id: number | string;
  email: string;
  /** MAIL_LANGUAGES: the widget's language when the patient booked. */
  language: string;
  /** Random, the unsubscribe link's; unique over every site. */
  unsubscribe_token: string;
  created_at: Millis;
  forget_at: Millis;
}

/** One site's row. Origins and limits are JSON text, the same on both engines; times are ISO 8601 text. */
export interface SiteRow {
  site_id: string;
  name: string;
  upstream_url: string;
  app_key: string;
  /** The app secret, sealed (site-secrets.ts); never the secret itself. */
  app_secret_sealed: string;
  allowed_origins: string;
  time_zone: string;
  min_notice_minutes: number;
  horizon_days: number;
  default_duration_minutes: number;
  limits: string | null;
  status: string;
  created_at: string;
  updated_at: string;
  /** Moved by one at every change (site.store.ts), by the store's own writes; what a BFF compares its sites with. */
  version: Generated<number>;
  /** The clinic's address for e-mails; null: none. */
  notify_email: string | null;
  /** The e-mails' language (MAIL_LANGUAGES); null: en. */
  notify_language: string | null;
  webhook_url: string | null;
  /** The Standard Webhooks secret, sealed as the app secret is; null with webhook_url null. */
  webhook_secret_sealed: string | null;
  /** null: the BFF's CHANGE_REQUEST_MIN_NOTICE_HOURS. */
  change_min_notice_hours: number | null;
  /** 1 or 0; null: the BFF's CHANGE_REQUEST_MOVE. */
  change_move_allowed: number | null;
  change_text: string | null;
  booking_page_url: string | null;
  /** The site's own sender of e-mail; null: the BFF's MAIL_FROM. */
  mail_from: string | null;
  /** The site's own relay URL, sealed (it may hold a password); null: the BFF's SMTP_URL. */
  smtp_url_sealed: string | null;
  /** DKIM signing of the site's e-mail: its domain, selector and private key (sealed); all null: none. */
  dkim_domain: string | null;
  dkim_selector: string | null;
  dkim_private_key_sealed: string | null;
  /** Hours before an appointment its patient's reminder goes; 0: none; null: the BFF's REMINDER_HOURS_BEFORE. */
  reminder_hours_before: number | null;
}

export interface SitesDatabase {
  db: Kysely<SitesTables>;
  engine: Engine;
  close(): Promise<void>;
}

/** The migrations' own bookkeeping tables, named apart from the server's, should both ever share a PostgreSQL database. */
const MIGRATION_TABLE = 'bff_migration';
const MIGRATION_LOCK_TABLE = 'bff_migration_lock';

/** How long a write waits for another process's lock on the SQLite file (the CLI beside a running BFF). */
const SQLITE_BUSY_TIMEOUT_MS = 5000;

/**
 * Opens the BFF's database at DATABASE_URL (creating the SQLite file and its
 * folder if needed) and brings its schema up to date. A handful of rows
 * written by an operator: one SQLite connection, or a small pool.
 */
export async function openSitesDatabase(databaseUrl: string): Promise<SitesDatabase> {
  const engine = engineOfUrl(databaseUrl);
  const db = engine === 'postgres' ? openPostgres(databaseUrl) : openSqlite(sqlitePathFromUrl(databaseUrl));
  try {
    await migrate(db);
  } catch (error) {
    await db.destroy();
    throw error;
  }
  return { db, engine, close: () => db.destroy() };
}

function openSqlite(path: string): Kysely<SitesTables> {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const sqlite = new SQLite(path, { timeout: SQLITE_BUSY_TIMEOUT_MS });
  // WAL as the server's file has it; FULL: a site the CLI said it created is on disk.
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = FULL');
  // Deleted rows (a patient's erasure, housekeeping) are overwritten with zeros, not left in free space (docs/privacy.md).
  sqlite.pragma('secure_delete = ON');
  return new Kysely<SitesTables>({ dialect: new MigrationLockingSqliteDialect({ database: sqlite }) });
}

function openPostgres(url: string): Kysely<SitesTables> {
  const pool = new pg.Pool({ connectionString: url, max: 4, application_name: 'clinic-bff' });
  // A dropped idle connection must not end the process; the next query opens a new one.
  pool.on('error', () => undefined);
  // Nor one dropped while checked out between two statements (PostgreSQL restarted, the backend terminated): the
  // pool listens only to idle clients, and a client's 'error' with no listener throws. The statement in flight
  // fails on its own, and the pool drops the client when it comes back unusable.
  pool.on('connect', (client) => client.on('error', () => undefined));
  return new Kysely<SitesTables>({ dialect: new PostgresDialect({ pool }) });
}

async function migrate(db: Kysely<SitesTables>): Promise<void> {
  const migrations: Record<string, Migration> = {
    '001-sites': sitesTable,
    '002-site-version': siteVersion,
    '003-notifications': notificationTables,
    '004-patient-mail': patientMail,
  };
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => migrations },
    migrationTableName: MIGRATION_TABLE,
    migrationLockTableName: MIGRATION_LOCK_TABLE,
  });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((result) => result.status === 'Error');
  if (error || failed) {
    const name = failed ? ` (${failed.migrationName})` : '';
    throw new Error(`BFF database migration failed${name}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/**
 * SQLite as Kysely speaks it, except that migrations hold the file's write
 * lock: Kysely's own SQLite adapter takes no migration lock (it assumes one
 * connection, one process), so two BFFs first started together on one file
 * both ran the migrations and one failed ("table sites already exists").
 * BEGIN IMMEDIATE takes the write lock (the other process waits, up to the
 * busy timeout) and the migrations run inside it, on the migrator's one
 * connection: SQLite's DDL is transactional, and Kysely opens no transaction
 * of its own on SQLite (supportsTransactionalDdl is false).
 */
class MigrationLockingSqliteDialect extends SqliteDialect {
  override createAdapter(): DialectAdapter {
    return new MigrationLockingSqliteAdapter();
  }
}

class MigrationLockingSqliteAdapter extends SqliteAdapter {
  override async acquireMigrationLock(db: Kysely<unknown>): Promise<void> {
    await sql`begin immediate`.execute(db);
  }

  override async releaseMigrationLock(db: Kysely<unknown>): Promise<void> {
    await sql`commit`.execute(db);
  }
}
