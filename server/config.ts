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
  /** `file:` (or a path) for a SQLite file; `postgres://` or `postgresql://` for PostgreSQL. */
  DATABASE_URL: z
    .string()
    .min(1)
    .default('file:data/clinic.db')
    .refine((url) => isSupportedDatabaseUrl(url), { message: 'must be a file: path (SQLite) or a postgres:// URL (PostgreSQL)' }),
  /** PostgreSQL: connections each process keeps at most (SQLite always has one). */
  DATABASE_POOL_SIZE: z.coerce.number().int().min(2).max(200).default(10),
  /**
   * PostgreSQL: how long opening a connection, or waiting for a free one, may take; then the request is 503.
   * Every query here takes milliseconds: a connection that takes seconds to open, or a free one seconds to come, means trouble.
   */
  DATABASE_CONNECT_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(5000),
  /** PostgreSQL: how long one statement may run before it is cancelled and its request answered 503 (the BFF gives up on a read after 5 s too). */
  DATABASE_STATEMENT_TIMEOUT_MS: z.coerce.number().int().min(100).max(3_600_000).default(5000),
  /** FULL fsyncs every commit (survives power loss); NORMAL survives a process kill -9 but not a power cut. */
  SQLITE_SYNCHRONOUS: z.enum(['FULL', 'NORMAL']).default('FULL'),
  /** Requests allowed per app key in each window on every authenticated endpoint. */
  ...rateSettings('API', 600, 60_000),
  /** Tokens issued per client IP in each window; failed exchanges count apart (TOKEN_FAILURE_*). */
  ...rateSettings('TOKEN', 10, 60_000),
  /** Failed token exchanges per client IP and app key in each window (five times as many per IP over all keys). */
  ...rateSettings('TOKEN_FAILURE', 10, 600_000),
  /** Public base URL of this server, used for the demo clinic's image links. */
  PUBLIC_URL: z.url().optional(),
});

export interface ServerConfig extends CoreConfig {
  /** DATABASE_* and SQLITE_SYNCHRONOUS, as openDatabase takes them. */
  database: DatabaseSettings;
  apiRateLimit: RateWindow;
  tokenRateLimit: RateWindow;
  tokenFailureRateLimit: RateWindow;
  publicUrl: string;
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
