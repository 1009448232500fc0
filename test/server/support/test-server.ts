import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { Writable } from 'node:stream';
import type { Express } from 'express';
import { createApp } from '../../../server/app.js';
import type { Clock } from '../../../platform/clock.js';
import type { Database, Db } from '../../../server/db/database.js';
import { createHttpServer } from '../../../platform/fast-http/http-server.js';
import { createLogger } from '../../../platform/logger.js';
import type { ServiceMetrics } from '../../../platform/metrics/service-metrics.js';
import { ClinicStore } from '../../../server/clinics/clinic.store.js';
import { ClinicFile } from '../../../server/clinics/clinic-file.js';
import { AuthService } from '../../../server/auth/auth.service.js';
import { KeyStore } from '../../../server/auth/key.store.js';
import { TokenStore } from '../../../server/auth/token.store.js';
import { clinicFixture } from './clinic-fixture.js';
import { FakeClock, TEST_NOW } from '../../support/fake-clock.js';
import { createTestDatabase, openTestDatabase, removeSqliteFolder, sqliteTestDatabase, type TestDatabase } from './test-database.js';
import { SEED_SECRET_COST } from './seed-secret-cost.js';
import { SecretHasher } from '../../../server/auth/secret-hash.js';
import { once } from '../../support/scoped-teardown.js';

export { tempDbPath } from './test-database.js';

export interface TestServerOptions {
  clock?: Clock;
  apiRateLimit?: { limit: number; windowMs: number };
  tokenRateLimit?: { limit: number; windowMs: number };
  tokenFailureRateLimit?: { limit: number; windowMs: number };
  /** Run on this SQLite file (e.g. to restart on the same data), whatever TEST_DATABASE says. */
  dbPath?: string;
  /** Run on this database (e.g. to restart on the same data); close() leaves it, the caller removes it. */
  database?: TestDatabase;
  /** Listen on this port (e.g. to restart where the BFF expects it); default ephemeral. */
  port?: number;
  /** Count into these metrics, as under METRICS_PORT. */
  metrics?: ServiceMetrics;
  /** How it checks app secrets; default at the seeds' cost (SEED_SECRET_COST), so that its decoy costs what they do. */
  secretHasher?: SecretHasher;
}

export interface TestServer {
  /** The app it serves, for tests that read its routes. */
  app: Express;
  baseUrl: string;
  api: string;
  db: Db;
  /** The database it runs on: its own unless one was given. */
  database: TestDatabase;
  /** DATABASE_URL for a process (the CLI, a second server) that must see the same data. */
  databaseUrl: string;
  /** For removeDb(): the SQLite file's path, or on PostgreSQL the database's URL. */
  dbPath: string;
  clock: Clock;
  /** Every log line the server wrote. */
  logs: string[];
  /** Stops it; safe to call again, so a test may stop its upstream and the harness close it all the same. */
  close(): Promise<void>;
}

/** A pino destination that keeps every log line, for tests that read what was logged. */
export function collectLogLines(): { lines: string[]; sink: Writable } {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
      done();
    },
  });
  return { lines, sink };
}

/**
 * The real app on 127.0.0.1 with an ephemeral port and a real database: its
 * own SQLite file, or with TEST_DATABASE=postgres its own PostgreSQL database,
 * which close() drops.
 */
export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  const owned = !options.database && !options.dbPath;
  const database = options.database ?? (options.dbPath ? sqliteTestDatabase(options.dbPath) : await createTestDatabase());
  let opened: Database;
  try {
    opened = await openTestDatabase(database.url);
  } catch (error) {
    if (owned && database.engine === 'postgres') await database.remove();
    throw error;
  }
  const clock = options.clock ?? new FakeClock(TEST_NOW);
  const { lines: logs, sink } = collectLogLines();
  const db = opened.kysely;
  const app = createApp({
    database: opened,
    clock,
    logger: createLogger('info', sink),
    metrics: options.metrics,
    secretHasher: options.secretHasher ?? new SecretHasher(SEED_SECRET_COST),
    config: {
      trustProxy: false,
      apiRateLimit: options.apiRateLimit ?? { limit: 10_000, windowMs: 60_000 },
      tokenRateLimit: options.tokenRateLimit ?? { limit: 10_000, windowMs: 60_000 },
      tokenFailureRateLimit: options.tokenFailureRateLimit ?? { limit: 10_000, windowMs: 60_000 },
    },
  });
  const server: Server = await new Promise((resolve, reject) => {
    const listening = createHttpServer(app).listen(options.port ?? 0, '127.0.0.1', () => resolve(listening));
    listening.once('error', reject);
  });
  const { port } = server.address() as AddressInfo;
  const baseUrl = `http://127.0.0.1:${port}`;
  return {
    app,
    baseUrl,
    api: `${baseUrl}/api/v1`,
    db,
    database,
    databaseUrl: database.url,
    dbPath: database.location,
    clock,
    logs,
    close: once(async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await db.destroy();
      if (owned && database.engine === 'postgres') await database.remove();
    }),
  };
}

/**
 * Removes a test server's SQLite database folder (`server.dbPath`). A
 * PostgreSQL database the server made was dropped by close(); one given to it
 * is removed with `database.remove()`, so a URL here is left alone.
 */
export function removeDb(dbPath: string): void {
  if (/^postgres(ql)?:\/\//.test(dbPath)) return;
  removeSqliteFolder(dbPath);
}

export interface SeededClinic {
  careId: number;
  appKey: string;
  secret: string;
}

/** Creates a clinic (the fixture unless given) and a key pair for it. */
export async function seedClinic(server: TestServer, file = clinicFixture()): Promise<SeededClinic> {
  const careId = await new ClinicStore(server.db).create(ClinicFile.parse(file), server.clock.now());
  const auth = new AuthService(new KeyStore(server.db), new TokenStore(server.db), server.clock, new SecretHasher(SEED_SECRET_COST));
  const { app_key, app_secret_key } = await auth.createKeyPair(careId);
  return { careId, appKey: app_key, secret: app_secret_key };
}

/** POST /granttoken through HTTP; returns the access token. */
export async function grantToken(server: TestServer, clinic: SeededClinic): Promise<string> {
  const res = await fetch(`${server.api}/granttoken`, {
    method: 'POST',
    headers: { 'x-app-key': clinic.appKey, 'x-app-secret-key': clinic.secret },
  });
  if (res.status !== 200) throw new Error(`granttoken answered ${res.status}`);
  return ((await res.json()) as { access_token: string }).access_token;
}

export interface Caller {
  get(path: string, headers?: Record<string, string>): Promise<Response>;
  post(path: string, body: unknown, headers?: Record<string, string>): Promise<Response>;
  headers: Record<string, string>;
}

/** A client that sends x-app-key and the Bearer token with every request. */
export async function authenticatedCaller(server: TestServer, clinic: SeededClinic): Promise<Caller> {
  const token = await grantToken(server, clinic);
  const headers = { 'x-app-key': clinic.appKey, authorization: `Bearer ${token}` };
  return {
    headers,
    get: (path, extra = {}) => fetch(`${server.api}${path}`, { headers: { ...headers, ...extra } }),
    post: (path, body, extra = {}) =>
      fetch(`${server.api}${path}`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json', ...extra },
        body: typeof body === 'string' ? body : JSON.stringify(body),
      }),
  };
}

/** A valid booking for Tuesday 24 November 2026 10:00 (the day after TEST_NOW). */
export function validBooking(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    patient_name: 'Jane Doe',
    patient_phone: '+44 7700 900123',
    appointment_date: '2026-11-24',
    appointment_time: '10:00',
    ...overrides,
  };
}

/** A 401 body: each credential problem has its own message, none of which tells whether a key exists. */
const authFailed = (message: string) => ({ success: false, message, error_code: 'auth_failed' });
export const MISSING_TOKEN = authFailed('Missing bearer token: send Authorization: Bearer <access_token> from POST /granttoken, with x-app-key');
export const MISSING_APP_KEY = authFailed('Missing x-app-key header: send it with the bearer token');
export const INVALID_TOKEN = authFailed('Invalid or expired access token');
export const MISSING_KEY_OR_SECRET = authFailed('Missing x-app-key or x-app-secret-key header');
export const INVALID_KEY_OR_SECRET = authFailed('Invalid API key or secret');
/** The 401 of POST /granttoken for an unknown or revoked key or a wrong secret; stubs of the API answer it too. */
export const AUTH_FAILED = INVALID_KEY_OR_SECRET;
