import { z } from 'zod';
import { parseTrustProxy } from './trust-proxy.js';

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export const portSetting = z.coerce.number().int().min(0).max(65535);
export const positiveIntSetting = z.coerce.number().int().positive();

/** A rate limit: so many requests per window. */
export interface RateWindow {
  limit: number;
  windowMs: number;
}

/** What every Redis key starts with when REDIS_KEY_PREFIX is unset. */
export const DEFAULT_REDIS_KEY_PREFIX = 'clinic-booking:';

/** The settings every service has, with each service's own default port. */
export function coreSettings(defaultPort: number) {
  return {
    PORT: portSetting.default(defaultPort).describe('listening port'),
    HOST: z.string().min(1).default('127.0.0.1').describe('listening address'),
    LOG_LEVEL: z.enum(LOG_LEVELS).default('info').describe('pino level: `fatal`, `error`, `warn`, `info`, `debug`, `trace` or `silent`'),
    TRUST_PROXY: z
      .string()
      .default('false')
      .describe(
        'Express `trust proxy`: `false`, `true`, a hop count or a list of addresses, so that per-IP limits see the real client behind a proxy or CDN',
      ),
    SHUTDOWN_TIMEOUT_MS: positiveIntSetting
      .default(10_000)
      .describe('how long SIGTERM or SIGINT waits for in-flight requests before the process exits anyway'),
    REDIS_URL: z
      .url({ protocol: /^rediss?$/, error: 'must be a redis:// or rediss:// URL' })
      .optional()
      .describe(
        '`redis://` or `rediss://`: what every instance of the service shares (rate limits; on the BFF also learnt taken slots and "any dentist" booking keys, see [Running several instances](#running-several-instances)); unset, each process keeps its own in memory',
      ),
    METRICS_PORT: portSetting
      .optional()
      .describe('a port of its own for Prometheus metrics at `GET /metrics` (see [Metrics](#metrics)); unset, no metrics are kept or served'),
    METRICS_HOST: z
      .string()
      .min(1)
      .default('127.0.0.1')
      .describe('the address the metrics listener binds to; keep it private (a scraper on the same host or network)'),
    REDIS_KEY_PREFIX: z
      .string()
      .min(1)
      .max(100)
      .default(DEFAULT_REDIS_KEY_PREFIX)
      .describe('what every Redis key of this deployment starts with, so several deployments can share one Redis'),
  };
}

/**
 * `${NAME}_RATE_LIMIT` and `${NAME}_RATE_WINDOW_MS` settings with their
 * defaults; `counted` says what the limit counts, e.g. "requests per app key",
 * and `note` anything more a reader of the settings table needs.
 */
export function rateSettings<N extends string>(name: N, limit: number, windowMs: number, counted: string, note?: string) {
  return {
    [`${name}_RATE_LIMIT`]: positiveIntSetting.default(limit).describe(`${counted} in each window${note ? `; ${note}` : ''}`),
    [`${name}_RATE_WINDOW_MS`]: positiveIntSetting.default(windowMs).describe(`the window of ${name}_RATE_LIMIT, in milliseconds`),
  } as Record<`${N}_RATE_LIMIT` | `${N}_RATE_WINDOW_MS`, z.ZodDefault<typeof positiveIntSetting>>;
}

/** The typed core every service's config carries. */
export interface CoreConfig {
  port: number;
  host: string;
  logLevel: LogLevel;
  trustProxy: boolean | number | string;
  shutdownTimeoutMs: number;
  /** REDIS_URL: counters (and the BFF's taken slots) shared through Redis; absent, in memory. */
  redisUrl?: string;
  /** REDIS_KEY_PREFIX; optional so configs built in code may leave it at its default. */
  redisKeyPrefix?: string;
  /** METRICS_PORT and METRICS_HOST: where Prometheus scrapes; absent, no metrics are kept. */
  metrics?: { port: number; host: string };
}

type CoreEnv = z.infer<z.ZodObject<ReturnType<typeof coreSettings>>>;

export function coreConfig(env: CoreEnv): CoreConfig {
  return {
    port: env.PORT,
    host: env.HOST,
    logLevel: env.LOG_LEVEL,
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
    shutdownTimeoutMs: env.SHUTDOWN_TIMEOUT_MS,
    redisUrl: env.REDIS_URL,
    redisKeyPrefix: env.REDIS_KEY_PREFIX,
    ...(env.METRICS_PORT === undefined ? {} : { metrics: { port: env.METRICS_PORT, host: env.METRICS_HOST } }),
  };
}

/** A rate window read from `${name}_RATE_LIMIT` / `${name}_RATE_WINDOW_MS`. */
export function rateWindow(env: Record<string, unknown>, name: string): RateWindow {
  return { limit: env[`${name}_RATE_LIMIT`] as number, windowMs: env[`${name}_RATE_WINDOW_MS`] as number };
}

/**
 * Parses the environment against a service's schema. A bad setting throws one
 * Error that names every bad variable and what is wrong with it, never its
 * value (a value may be a secret): the one error style of both services.
 */
export function parseSettings<S extends z.ZodType>(schema: S, env: NodeJS.ProcessEnv, service: string): z.output<S> {
  const parsed = schema.safeParse(env);
  if (!parsed.success) {
    const problems = [...new Set(parsed.error.issues.map((issue) => `${issue.path.join('.')} (${issue.message})`))];
    throw new Error(`Invalid ${service} configuration: ${problems.join('; ')}`);
  }
  return parsed.data;
}
