import { existsSync } from 'node:fs';
import { hkdfSync } from 'node:crypto';
import { z } from 'zod';
import { parseTrustProxy } from '../server/config.js';

const positiveInt = z.coerce.number().int().positive();

const originList = z
  .string()
  .default('')
  .transform((value) => value.split(',').map((origin) => origin.trim()).filter(Boolean))
  .pipe(z.array(z.url().transform((url) => new URL(url).origin)));

/** The BFF's settings, read once from the environment (and .env); nothing else reads process.env. */
export const BffConfigSchema = z.object({
  UPSTREAM_URL: z.url().transform((url) => url.replace(/\/$/, '')),
  APP_KEY: z.string().min(1),
  APP_SECRET_KEY: z.string().min(1),
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().min(1).default('127.0.0.1'),
  ALLOWED_ORIGINS: originList,
  TRUST_PROXY: z.string().default('false'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** How long content stays fresh, and how long past that a stale copy may still be served. */
  CACHE_TTL_MS: positiveInt.default(60_000),
  CACHE_MAX_STALE_MS: positiveInt.default(24 * 3600_000),
  CACHE_MAX_BYTES: positiveInt.default(5 * 1024 * 1024),
  UPSTREAM_TIMEOUT_MS: positiveInt.default(5_000),
  /** Requests per client IP per window on all of /api. */
  API_RATE_LIMIT: positiveInt.default(300),
  API_RATE_WINDOW_MS: positiveInt.default(60_000),
  /** Bookings per client IP per window. */
  BOOKING_RATE_LIMIT: positiveInt.default(5),
  BOOKING_RATE_WINDOW_MS: positiveInt.default(10 * 60_000),
  /** Key for booking references; derived from APP_SECRET_KEY with HKDF when unset. */
  BOOKING_REF_SECRET: z.string().min(32).optional(),
  /** Folder of the built widget (vite output). */
  WIDGET_DIR: z.string().default('widget/dist'),
  SHUTDOWN_TIMEOUT_MS: positiveInt.default(10_000),
});

export interface BffConfig {
  upstreamUrl: string;
  appKey: string;
  appSecretKey: string;
  port: number;
  host: string;
  allowedOrigins: string[];
  trustProxy: boolean | number | string;
  logLevel: z.infer<typeof BffConfigSchema>['LOG_LEVEL'];
  cache: { ttlMs: number; maxStaleMs: number; maxBytes: number };
  upstreamTimeoutMs: number;
  apiRateLimit: { limit: number; windowMs: number };
  bookingRateLimit: { limit: number; windowMs: number };
  referenceKey: Buffer;
  widgetDir: string;
  shutdownTimeoutMs: number;
}

/**
 * Parses the environment, after loading `.env` from the working directory when
 * there is one. Throws one Error naming each bad variable, never its value.
 */
export function loadBffConfig(env: NodeJS.ProcessEnv = process.env, envFile = '.env'): BffConfig {
  if (env === process.env && existsSync(envFile)) process.loadEnvFile(envFile);
  const parsed = BffConfigSchema.safeParse(env);
  if (!parsed.success) {
    const names = [...new Set(parsed.error.issues.map((issue) => `${issue.path.join('.')} (${issue.message})`))];
    throw new Error(`Invalid BFF configuration: ${names.join('; ')}`);
  }
  const e = parsed.data;
  return {
    upstreamUrl: e.UPSTREAM_URL,
    appKey: e.APP_KEY,
    appSecretKey: e.APP_SECRET_KEY,
    port: e.PORT,
    host: e.HOST,
    allowedOrigins: e.ALLOWED_ORIGINS,
    trustProxy: parseTrustProxy(e.TRUST_PROXY),
    logLevel: e.LOG_LEVEL,
    cache: { ttlMs: e.CACHE_TTL_MS, maxStaleMs: e.CACHE_MAX_STALE_MS, maxBytes: e.CACHE_MAX_BYTES },
    upstreamTimeoutMs: e.UPSTREAM_TIMEOUT_MS,
    apiRateLimit: { limit: e.API_RATE_LIMIT, windowMs: e.API_RATE_WINDOW_MS },
    bookingRateLimit: { limit: e.BOOKING_RATE_LIMIT, windowMs: e.BOOKING_RATE_WINDOW_MS },
    referenceKey: deriveReferenceKey(e.BOOKING_REF_SECRET ?? e.APP_SECRET_KEY),
    widgetDir: e.WIDGET_DIR,
    shutdownTimeoutMs: e.SHUTDOWN_TIMEOUT_MS,
  };
}

/**
 * HKDF keeps references valid across restarts and instances (same input, same
 * key) while the app secret itself is never used directly as a signing key.
 */
export function deriveReferenceKey(secret: string): Buffer {
  return Buffer.from(hkdfSync('sha256', secret, 'clinic-booking', 'booking-reference-v1', 64));
}
