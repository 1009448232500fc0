import { z } from 'zod';
import { DEFAULT_POOL_SIZE, engineOfUrl } from './db/connection.js';
import { coreConfig, coreSettings, parseSettings, rateSettings, rateWindow, type CoreConfig, type RateWindow } from '../platform/config.js';

/** The server's settings, read once from the environment; nothing else reads process.env. */
export const ServerConfigSchema = z.object({
  ...coreSettings(4000),
  /** `file:` (or a path) for a SQLite file; `postgres://` or `postgresql://` for PostgreSQL. */
  DATABASE_URL: z
    .string()
    .min(1)
    .default('file:data/clinic.db')
    .refine((url) => isSupportedDatabaseUrl(url), { message: 'must be a file: path (SQLite) or a postgres:// URL (PostgreSQL)' }),
  /** PostgreSQL: connections each process keeps at most (SQLite always has one). */
  DATABASE_POOL_SIZE: z.coerce.number().int().min(2).max(200).default(DEFAULT_POOL_SIZE),
  /** FULL fsyncs every commit (survives power loss); NORMAL survives a process kill -9 but not a power cut. */
  SQLITE_SYNCHRONOUS: z.enum(['FULL', 'NORMAL']).default('FULL'),
  /** Requests allowed per app key in each window on every authenticated endpoint. */
  ...rateSettings('API', 600, 60_000),
  /** Token exchanges allowed per client IP in each window (brute-force guard on secrets). */
  ...rateSettings('TOKEN', 10, 60_000),
  /** Public base URL of this server, used for the demo clinic's image links. */
  PUBLIC_URL: z.url().optional(),
});

export interface ServerConfig extends CoreConfig {
  databaseUrl: string;
  databasePoolSize: number;
  sqliteSynchronous: 'FULL' | 'NORMAL';
  apiRateLimit: RateWindow;
  tokenRateLimit: RateWindow;
  publicUrl: string;
}

/** Parses the environment; throws one Error whose message names every bad variable. */
export function loadServerConfig(env: NodeJS.ProcessEnv = process.env): ServerConfig {
  const e = parseSettings(ServerConfigSchema, env, 'server');
  return {
    ...coreConfig(e),
    databaseUrl: e.DATABASE_URL,
    databasePoolSize: e.DATABASE_POOL_SIZE,
    sqliteSynchronous: e.SQLITE_SYNCHRONOUS,
    apiRateLimit: rateWindow(e, 'API'),
    tokenRateLimit: rateWindow(e, 'TOKEN'),
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
