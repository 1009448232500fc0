import { z } from 'zod';
import type { DatabaseSettings } from './db/connection.js';
import { engineOfUrl } from './db/engine.js';
import { coreConfig, coreSettings, parseSettings, rateSettings, rateWindow, type CoreConfig, type RateWindow } from '../platform/config.js';

/**
 * The server's settings, read once from the environment; nothing else reads
 * process.env. Every default is here: the code receives a complete
 * ServerConfig (loadServerConfig) and assumes none of its own.
 */
export const ServerConfigSchema = z.object({
  ...coreSettings(4000),
  DATABASE_URL: z
    .string()
    .min(1)
    .default('file:data/clinic.db')
    .refine((url) => isSupportedDatabaseUrl(url), { message: 'must be a file: path (SQLite) or a postgres:// URL (PostgreSQL)' })
    .describe(
      'SQLite file (`file:` relative or absolute path), or PostgreSQL (`postgres://user@host:5432/db` or `postgresql://…`); any other scheme is refused at start',
    ),
  DATABASE_POOL_SIZE: z.coerce
    .number()
    .int()
    .min(2)
    .max(200)
    .default(10)
    .describe('PostgreSQL only: connections each process keeps at most (2 to 200; SQLite always has one)'),
  // Every query here takes milliseconds: a connection that takes seconds to open, or a free one seconds to come, means trouble.
  DATABASE_CONNECT_TIMEOUT_MS: z.coerce
    .number()
    .int()
    .min(100)
    .max(600_000)
    .default(5000)
    .describe('PostgreSQL only: how long opening a connection, or waiting for a free one, may take; past it the request is 503 `database_unavailable`'),
  DATABASE_STATEMENT_TIMEOUT_MS: z.coerce
    .number()
    .int()
    .min(100)
    .max(3_600_000)
    .default(5000)
    .describe(
      'PostgreSQL only: how long one statement may run before PostgreSQL cancels it (503 `database_unavailable`); a server that does not answer at all is given up 1 s later and its connection discarded. The migrations at start-up run without it',
    ),
  SQLITE_SYNCHRONOUS: z
    .enum(['FULL', 'NORMAL'])
    .default('FULL')
    .describe('`FULL`: every booking is fsynced before it is acknowledged (survives a power cut); `NORMAL`: survives a process crash, not a power cut'),
  ...rateSettings('API', 600, 60_000, 'requests per app key on every authenticated endpoint'),
  ...rateSettings('TOKEN', 10, 60_000, 'tokens issued by `POST /granttoken` per client IP', 'failed exchanges do not count here'),
  ...rateSettings(
    'TOKEN_FAILURE',
    10,
    600_000,
    'failed `POST /granttoken` (401) per client IP and app key',
    'five times as many per client IP over all keys ([spec-silence.md](spec-silence.md#rate-limits))',
  ),
  RETENTION_DAYS: z.coerce
    .number()
    .int()
    .min(0)
    .max(36_500)
    .default(365)
    .describe(
      "days an appointment's patient data is kept after its date: past them, name, phone, address and note are erased (date, time, dentist, treatment and status stay), at start, daily and by `clinic appointments purge`; `0` keeps them forever ([privacy.md](privacy.md))",
    ),
  PUBLIC_URL: z.url().optional().describe("public base URL of this server, for the demo clinic's image links; unset, `http://HOST:PORT`"),
});

export interface ServerConfig extends CoreConfig {
  /** DATABASE_* and SQLITE_SYNCHRONOUS, as openDatabase takes them. */
  database: DatabaseSettings;
  apiRateLimit: RateWindow;
  tokenRateLimit: RateWindow;
  tokenFailureRateLimit: RateWindow;
  publicUrl: string;
  /** RETENTION_DAYS: 0 turns retention off. */
  retentionDays: number;
}

/** Parses the environment; throws one Error whose message names every bad variable. */
export function loadServerConfig(env: NodeJS.ProcessEnv = process.env): ServerConfig {
  const e = parseSettings(ServerConfigSchema, env, 'server');
  return {
    ...coreConfig(e),
    database: {
      url: e.DATABASE_URL,
      poolSize: e.DATABASE_POOL_SIZE,
      connectTimeoutMs: e.DATABASE_CONNECT_TIMEOUT_MS,
      statementTimeoutMs: e.DATABASE_STATEMENT_TIMEOUT_MS,
      sqliteSynchronous: e.SQLITE_SYNCHRONOUS,
    },
    apiRateLimit: rateWindow(e, 'API'),
    tokenRateLimit: rateWindow(e, 'TOKEN'),
    tokenFailureRateLimit: rateWindow(e, 'TOKEN_FAILURE'),
    retentionDays: e.RETENTION_DAYS,
    publicUrl: (e.PUBLIC_URL ?? `http://${e.HOST}:${e.PORT}`).replace(/\/$/, ''),
  };
}

function isSupportedDatabaseUrl(url: string): boolean {
  try {
    engineOfUrl(url);
    return true;
  } catch {
    return false;
  }
}
