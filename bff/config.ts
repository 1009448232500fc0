import { existsSync } from 'node:fs';
import { hkdfSync } from 'node:crypto';
import { z } from 'zod';
import { coreConfig, coreSettings, parseSettings, positiveIntSetting, rateSettings, rateWindow, type CoreConfig, type RateWindow } from '../platform/config.js';

const originList = z
  .string()
  .default('')
  .transform((value) => value.split(',').map((origin) => origin.trim()).filter(Boolean))
  .pipe(z.array(z.url().transform((url) => new URL(url).origin)));

const ianaTimeZone = z.string().refine(
  (zone) => {
    try {
      new Intl.DateTimeFormat('en', { timeZone: zone });
      return true;
    } catch {
      return false;
    }
  },
  { message: 'must be an IANA time zone, e.g. Europe/London' },
);

/** The BFF's settings, read once from the environment (and .env); nothing else reads process.env. */
export const BffConfigSchema = z.object({
  UPSTREAM_URL: z.url().transform((url) => url.replace(/\/$/, '')),
  APP_KEY: z.string().min(1),
  APP_SECRET_KEY: z.string().min(1),
  ...coreSettings(8080),
  ALLOWED_ORIGINS: originList,
  /**
   * The BFF's own origin as browsers reach it (e.g. https://book.clinic.example), allowed by CORS
   * beside ALLOWED_ORIGINS; never worked out from a request's Host header.
   */
  PUBLIC_ORIGIN: z
    .url({ protocol: /^https?$/, error: 'must be an http(s) origin, e.g. https://book.clinic.example' })
    .transform((url) => new URL(url).origin)
    .optional(),
  /** How long content stays fresh, and how long past that a stale copy may still be served. */
  CACHE_TTL_MS: positiveIntSetting.default(60_000),
  CACHE_MAX_STALE_MS: positiveIntSetting.default(24 * 3600_000),
  CACHE_MAX_BYTES: positiveIntSetting.default(5 * 1024 * 1024),
  UPSTREAM_TIMEOUT_MS: positiveIntSetting.default(5_000),
  /**
   * How long a booking waits for upstream; reads keep UPSTREAM_TIMEOUT_MS. Longer than reads, since
   * giving up early on a booking is what gets it made twice.
   */
  BOOKING_TIMEOUT_MS: positiveIntSetting.default(15_000),
  /**
   * The most of any upstream answer the BFF reads; a longer one is refused (502) while it streams.
   * Far above any real clinic's content, far below what hurts the process.
   */
  UPSTREAM_MAX_BODY_BYTES: positiveIntSetting.default(1024 * 1024),
  /**
   * Upstream calls per minute for content misses, across all clients; the rest
   * of the app key's upstream rate stays for bookings and status lookups.
   */
  UPSTREAM_READ_BUDGET: positiveIntSetting.default(120),
  /** Requests per client IP per window on all of /api. */
  ...rateSettings('API', 300, 60_000),
  /** Bookings per client IP per window. */
  ...rateSettings('BOOKING', 5, 10 * 60_000),
  /** Status lookups per client IP per window: with 64-bit MACs, guessing a reference is hopeless. */
  ...rateSettings('STATUS', 30, 10 * 60_000),
  /** The most taken slots the BFF remembers for availability (about 100 bytes each). */
  AVAILABILITY_MAX_SLOTS: positiveIntSetting.default(50_000),
  /**
   * The clinic's IANA time zone, for "today" in availability and "in the past" for a booking (the
   * API has no time-zone field); by default the demo clinic's.
   */
  CLINIC_TIMEZONE: ianaTimeZone.default('Europe/London'),
  /**
   * The secret booking references are made with (32+ characters), the same on every instance.
   * Required, and never derived from APP_SECRET_KEY: rotating the app key must not void every
   * reference patients hold.
   */
  BOOKING_REF_SECRET: z.string().min(32),
  /**
   * Earlier BOOKING_REF_SECRETs (comma-separated), still read but never used for new references,
   * so the reference secret itself can be rotated; also the app secret a BFF derived its key from
   * before BOOKING_REF_SECRET was required.
   */
  BOOKING_REF_SECRET_PREVIOUS: z
    .string()
    .default('')
    .transform((value) => value.split(',').map((secret) => secret.trim()).filter(Boolean)),
  /**
   * Serve the demo page at GET / (`npm start` and `npm run dev` turn it on); off, / is 404, as a BFF
   * beside a clinic's own site serves only /api, /widget and its health checks.
   */
  DEMO_PAGE: z.stringbool().default(false),
  /** Folder of the built widget (vite output). */
  WIDGET_DIR: z.string().default('widget/dist'),
  /** `npm run dev` only: Vite's dev server, to which /widget/* and its HMR websocket are proxied instead of serving WIDGET_DIR. */
  WIDGET_DEV_URL: z.url().transform((url) => url.replace(/\/$/, '')).optional(),
});

/**
 * The BFF's settings, every one of them set: what BffConfigSchema parsed, with
 * its defaults. Code receives this whole and applies no default of its own;
 * a config built in code (a test) starts from the schema's defaults too
 * (parseBffConfig). Only what has no default may be absent.
 */
export interface BffConfig extends CoreConfig {
  upstreamUrl: string;
  appKey: string;
  appSecretKey: string;
  allowedOrigins: string[];
  /** PUBLIC_ORIGIN: the BFF's own origin, allowed by CORS; none when absent. */
  publicOrigin?: string;
  cache: { ttlMs: number; maxStaleMs: number; maxBytes: number };
  upstreamTimeoutMs: number;
  bookingTimeoutMs: number;
  upstreamMaxBodyBytes: number;
  upstreamReadBudget: number;
  apiRateLimit: RateWindow;
  bookingRateLimit: RateWindow;
  statusRateLimit: RateWindow;
  availabilityMaxSlots: number;
  clinicTimeZone: string;
  /** The key new booking references are made with (BOOKING_REF_SECRET). */
  referenceKey: Buffer;
  /** BOOKING_REF_SECRET_PREVIOUS: keys references are still read with, after referenceKey. */
  previousReferenceKeys: readonly Buffer[];
  /** DEMO_PAGE: the demo page at GET /. */
  demoPage: boolean;
  widgetDir: string;
  /** Vite's dev server (WIDGET_DEV_URL), when /widget is proxied to it; absent in production. */
  widgetDevUrl?: string;
  /** REDIS_KEY_PREFIX, the schema's default when unset. */
  redisKeyPrefix: string;
}

/**
 * Parses the environment, after loading `.env` from the working directory when
 * there is one. Throws one Error naming each bad variable, never its value.
 */
export function loadBffConfig(env: NodeJS.ProcessEnv = process.env, envFile = '.env'): BffConfig {
  if (env === process.env && existsSync(envFile)) process.loadEnvFile(envFile);
  return parseBffConfig(env);
}

/**
 * The BFF's config from these settings alone (no `.env`): each one unset takes
 * the schema's default. Throws one Error naming each bad variable, never its value.
 */
export function parseBffConfig(env: NodeJS.ProcessEnv): BffConfig {
  const e = parseSettings(BffConfigSchema, env, 'BFF');
  return {
    ...coreConfig(e),
    redisKeyPrefix: e.REDIS_KEY_PREFIX,
    upstreamUrl: e.UPSTREAM_URL,
    appKey: e.APP_KEY,
    appSecretKey: e.APP_SECRET_KEY,
    allowedOrigins: e.ALLOWED_ORIGINS,
    publicOrigin: e.PUBLIC_ORIGIN,
    cache: { ttlMs: e.CACHE_TTL_MS, maxStaleMs: e.CACHE_MAX_STALE_MS, maxBytes: e.CACHE_MAX_BYTES },
    upstreamTimeoutMs: e.UPSTREAM_TIMEOUT_MS,
    bookingTimeoutMs: e.BOOKING_TIMEOUT_MS,
    upstreamMaxBodyBytes: e.UPSTREAM_MAX_BODY_BYTES,
    upstreamReadBudget: e.UPSTREAM_READ_BUDGET,
    apiRateLimit: rateWindow(e, 'API'),
    bookingRateLimit: rateWindow(e, 'BOOKING'),
    statusRateLimit: rateWindow(e, 'STATUS'),
    availabilityMaxSlots: e.AVAILABILITY_MAX_SLOTS,
    clinicTimeZone: e.CLINIC_TIMEZONE,
    referenceKey: deriveReferenceKey(e.BOOKING_REF_SECRET),
    previousReferenceKeys: e.BOOKING_REF_SECRET_PREVIOUS.map(deriveReferenceKey),
    demoPage: e.DEMO_PAGE,
    widgetDir: e.WIDGET_DIR,
    widgetDevUrl: e.WIDGET_DEV_URL,
  };
}

/**
 * A reference key from its secret with HKDF: the same secret gives the same
 * key on every restart and instance, and the secret itself is never used
 * directly as a key. (Before BOOKING_REF_SECRET was required, the secret was
 * APP_SECRET_KEY; the derivation is unchanged, so naming that app secret in
 * BOOKING_REF_SECRET_PREVIOUS reads the references made then.)
 */
export function deriveReferenceKey(secret: string): Buffer {
  return Buffer.from(hkdfSync('sha256', secret, 'clinic-booking', 'booking-reference-v1', 64));
}
