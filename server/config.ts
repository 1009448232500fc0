import { z } from 'zod';

const port = z.coerce.number().int().min(0).max(65535);
const positiveInt = z.coerce.number().int().positive();

/** The server's settings, read once from the environment; nothing else reads process.env. */
export const ServerConfigSchema = z.object({
  PORT: port.default(4000),
  HOST: z.string().min(1).default('127.0.0.1'),
  DATABASE_URL: z.string().min(1).default('file:data/clinic.db'),
  /** FULL fsyncs every commit (survives power loss); NORMAL survives a process kill -9 but not a power cut. */
  SQLITE_SYNCHRONOUS: z.enum(['FULL', 'NORMAL']).default('FULL'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Express "trust proxy": false, true, a hop count or a list of addresses. */
  TRUST_PROXY: z.string().default('false'),
  /** Requests allowed per app key in each window on every authenticated endpoint. */
  API_RATE_LIMIT: positiveInt.default(600),
  API_RATE_WINDOW_MS: positiveInt.default(60_000),
  /** Token exchanges allowed per client IP in each window (brute-force guard on secrets). */
  TOKEN_RATE_LIMIT: positiveInt.default(10),
  TOKEN_RATE_WINDOW_MS: positiveInt.default(60_000),
  /** Public base URL of this server, used for the demo clinic's image links. */
  PUBLIC_URL: z.url().optional(),
  SHUTDOWN_TIMEOUT_MS: positiveInt.default(10_000),
});

export type ServerConfig = {
  port: number;
  host: string;
  databaseUrl: string;
  sqliteSynchronous: 'FULL' | 'NORMAL';
  logLevel: z.infer<typeof ServerConfigSchema>['LOG_LEVEL'];
  trustProxy: boolean | number | string;
  apiRateLimit: { limit: number; windowMs: number };
  tokenRateLimit: { limit: number; windowMs: number };
  publicUrl: string;
  shutdownTimeoutMs: number;
};

/** Parses the environment; throws one Error whose message names every bad variable. */
export function loadServerConfig(env: NodeJS.ProcessEnv = process.env): ServerConfig {
  const parsed = ServerConfigSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    throw new Error(`Invalid configuration: ${problems.join('; ')}`);
  }
  const e = parsed.data;
  return {
    port: e.PORT,
    host: e.HOST,
    databaseUrl: e.DATABASE_URL,
    sqliteSynchronous: e.SQLITE_SYNCHRONOUS,
    logLevel: e.LOG_LEVEL,
    trustProxy: parseTrustProxy(e.TRUST_PROXY),
    apiRateLimit: { limit: e.API_RATE_LIMIT, windowMs: e.API_RATE_WINDOW_MS },
    tokenRateLimit: { limit: e.TOKEN_RATE_LIMIT, windowMs: e.TOKEN_RATE_WINDOW_MS },
    publicUrl: (e.PUBLIC_URL ?? `http://${e.HOST}:${e.PORT}`).replace(/\/$/, ''),
    shutdownTimeoutMs: e.SHUTDOWN_TIMEOUT_MS,
  };
}

/** Express 'trust proxy' from text: true, false, a hop count, or addresses/subnets. */
export function parseTrustProxy(value: string): boolean | number | string {
  if (value === 'true') return true;
  if (value === 'false' || value === '') return false;
  if (/^\d+$/.test(value)) return Number(value);
  return value;
}
