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
    PORT: portSetting.default(defaultPort),
    HOST: z.string().min(1).default('127.0.0.1'),
    LOG_LEVEL: z.enum(LOG_LEVELS).default('info'),
    /** Express "trust proxy": false, true, a hop count or a list of addresses. */
    TRUST_PROXY: z.string().default('false'),
    /** How long SIGTERM waits for in-flight requests. */
    SHUTDOWN_TIMEOUT_MS: positiveIntSetting.default(10_000),
    /**
     * Redis shared by every instance of the service (redis:// or rediss://), for
     * rate limits (and the BFF's taken slots); unset, each process keeps its own in memory.
     */
    REDIS_URL: z.url({ protocol: /^rediss?$/, error: 'must be a redis:// or rediss:// URL' }).optional(),
    /** What every Redis key of this deployment starts with, so deployments may share one Redis. */
    REDIS_KEY_PREFIX: z.string().min(1).max(100).default(DEFAULT_REDIS_KEY_PREFIX),
  };
}

/** `${NAME}_RATE_LIMIT` and `${NAME}_RATE_WINDOW_MS` settings with their defaults. */
export function rateSettings<N extends string>(name: N, limit: number, windowMs: number) {
  return {
    [`${name}_RATE_LIMIT`]: positiveIntSetting.default(limit),
    [`${name}_RATE_WINDOW_MS`]: positiveIntSetting.default(windowMs),
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
