import { existsSync } from 'node:fs';
import { hkdfSync } from 'node:crypto';
import { z } from 'zod';
import { decodeSecretsKey } from './secrets-key.js';
import { AllowlistError, parseOutboundAllowlist, type OutboundAllowlist } from './outbound/outbound-allowlist.js';
import { coreConfig, coreSettings, parseSettings, positiveIntSetting, rateSettings, rateWindow, type CoreConfig, type RateWindow } from '../platform/config.js';
import { BOOKING_RULE_BOUNDS, DEFAULT_BOOKING_RULES, type BookingRules } from '../contract/rules/booking-rules.js';
import { notificationConfig, notificationSettingProblems, NotificationSettingsSchema, type NotificationConfig } from './notifications/notification-settings.js';

/** A booking rule's setting: a whole number within the rule's bounds, the rule's default when unset. */
const bookingRuleSetting = (rule: keyof BookingRules) =>
  z.coerce.number().int().min(BOOKING_RULE_BOUNDS[rule].min).max(BOOKING_RULE_BOUNDS[rule].max).default(DEFAULT_BOOKING_RULES[rule]);

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

/** OUTBOUND_ALLOWLIST's entries, each checked here (parseOutboundAllowlist); the config holds them parsed. */
const outboundAllowlist = z
  .string()
  .default('')
  .transform((value) => value.split(',').map((entry) => entry.trim()).filter(Boolean))
  .superRefine((entries, ctx) => {
    try {
      parseOutboundAllowlist(entries);
    } catch (error) {
      if (!(error instanceof AllowlistError)) throw error;
      ctx.addIssue({ code: 'custom', message: error.message });
    }
  });

/** The BFF's settings, read once from the environment (and .env); nothing else reads process.env. */
export const BffConfigSchema = z.object({
  UPSTREAM_URL: z
    .url()
    .transform((url) => url.replace(/\/$/, ''))
    .optional()
    .describe(
      'the API base of the clinic served at `/api` (the default site), e.g. `http://127.0.0.1:4000/api/v1`. Required with `APP_KEY` and `APP_SECRET_KEY`, unless `SITE_SECRETS_KEY` is set and the BFF serves only the sites of its database ([docs/sites.md](sites.md#a-bff-of-sites-only))',
    ),
  APP_KEY: z
    .string()
    .min(1)
    .optional()
    .describe("the default site's application key; never sent to browsers. Required as `UPSTREAM_URL` is"),
  APP_SECRET_KEY: z
    .string()
    .min(1)
    .optional()
    .describe("the default site's secret key; never sent to browsers, never logged. Required as `UPSTREAM_URL` is"),
  ...coreSettings(8080),
  ALLOWED_ORIGINS: originList.describe('comma list of sites that may call `/api` from a browser (CORS)'),
  PUBLIC_ORIGIN: z
    .url({ protocol: /^https?$/, error: 'must be an http(s) origin, e.g. https://book.clinic.example' })
    .transform((url) => new URL(url).origin)
    .optional()
    .describe(
      "the BFF's own origin as browsers reach it (e.g. `https://book.clinic.example`), allowed by CORS beside `ALLOWED_ORIGINS`; `npm start` and `npm run dev` set it to the demo's URL. Unset, only `ALLOWED_ORIGINS` are allowed: the BFF never takes its own origin from a request's `Host` header, and a page it serves itself needs no CORS (its requests are same-origin)",
    ),
  CACHE_TTL_MS: positiveIntSetting.default(60_000).describe('how long content is fresh'),
  CACHE_MAX_STALE_MS: positiveIntSetting
    .default(24 * 3600_000)
    .describe('how long past that a stale copy may be served while upstream fails'),
  CACHE_MAX_BYTES: positiveIntSetting
    .default(5 * 1024 * 1024)
    .describe('memory bound of the content cache (its answers, their parsed values, and a reserve for compressed copies made on first request)'),
  UPSTREAM_TIMEOUT_MS: positiveIntSetting.default(5_000).describe('after this an upstream read is a 504 `upstream_timeout`'),
  // Longer than reads: giving up early on a booking is what gets it made twice.
  BOOKING_TIMEOUT_MS: positiveIntSetting
    .default(15_000)
    .describe('how long a booking waits for upstream (reads keep `UPSTREAM_TIMEOUT_MS`); after it, 504 `booking_outcome_unknown`'),
  // Far above any real clinic's content, far below what hurts the process.
  UPSTREAM_MAX_BODY_BYTES: positiveIntSetting
    .default(1024 * 1024)
    .describe('the most of any upstream answer the BFF reads; a longer one is refused while it streams (502 `upstream_unavailable`)'),
  UPSTREAM_MAX_IN_FLIGHT_PER_SITE: positiveIntSetting
    .default(8)
    .describe(
      'the most requests one site has in flight to upstream at once (token exchanges not counted); the rest wait their turn in order, so one busy clinic cannot take the connection pool',
    ),
  TOKEN_EXCHANGES_MAX_IN_FLIGHT: positiveIntSetting
    .default(8)
    .describe(
      "the most upstream token exchanges (`/granttoken`) in flight at once across all of the BFF's sites; the rest wait their turn, so a cold start or a Redis flush with many sites does not flood upstream",
    ),
  UPSTREAM_READ_BUDGET: positiveIntSetting
    .default(120)
    .describe(
      "upstream calls per minute (any 60 s) that content misses may make, across all clients; past it a miss with nothing servable cached is 503 `upstream_busy` with `Retry-After`, and stale copies go on being served. Bookings and status lookups never count against it: keep it well under the app key's upstream rate (600 a minute on the reference server) so they keep the rest",
    ),
  ...rateSettings('API', 300, 60_000, 'requests per client IP on `/api`'),
  ...rateSettings(
    'BOOKING',
    5,
    10 * 60_000,
    'bookings per client IP',
    "a booking counts once it is let through, whatever its client does after (hanging up before the answer included); it is given back only when the answer proves nothing was booked: a refusal before anything went upstream (a bad field, the honeypot, a malformed or non-JSON body, a bad Idempotency-Key, a rule the BFF checks itself, every dentist known taken), or a 504 `booking_outcome_unknown` of a booking sent with an Idempotency-Key, so that its re-send (which replays) is not refused",
  ),
  // With 64-bit MACs, guessing a reference is hopeless at this rate.
  ...rateSettings('STATUS', 30, 10 * 60_000, 'status lookups per client IP (POST and the deprecated GET together)'),
  ...rateSettings('CHANGE', 10, 3600_000, 'change requests (cancel or move) per client IP', 'every request counts, whatever its answer'),
  ...rateSettings(
    'CHANGE_BOOKING',
    5,
    24 * 3600_000,
    'change requests per booking, from any IP (counted by site and appointment, never by the reference)',
    'only requests whose body is well formed and whose reference is genuine count',
  ),
  AVAILABILITY_MAX_SLOTS: positiveIntSetting
    .default(50_000)
    .describe('the most taken slots the BFF remembers for each site (an LRU, about 100 bytes each); past it the oldest knowledge is dropped'),
  CLINIC_TIMEZONE: ianaTimeZone
    .default('Europe/London')
    .describe(
      "the clinic's IANA zone, for availability's \"today\" and a booking's \"in the past\" (the API has no time-zone field); set it to the zone the clinic was created with",
    ),
  // The clinic's booking rules live upstream, where the spec gives no way to read them: the BFF is told them too.
  BOOKING_MIN_NOTICE_MINUTES: bookingRuleSetting('minNoticeMinutes').describe(
    `how many minutes ahead a booking must start at least (${BOOKING_RULE_BOUNDS.minNoticeMinutes.min}..${BOOKING_RULE_BOUNDS.minNoticeMinutes.max}); availability never offers a sooner start and a booking of one is refused before it goes upstream (\`reason: inside_notice\`). Set it to the clinic's \`min_notice_minutes\``,
  ),
  BOOKING_HORIZON_DAYS: bookingRuleSetting('horizonDays').describe(
    `how many days after today a booking may be at most (${BOOKING_RULE_BOUNDS.horizonDays.min}..${BOOKING_RULE_BOUNDS.horizonDays.max}); later days are never offered and their bookings are refused before they go upstream (\`reason: beyond_horizon\`). Set it to the clinic's \`horizon_days\``,
  ),
  BOOKING_DEFAULT_DURATION_MINUTES: bookingRuleSetting('defaultDurationMinutes').describe(
    `how long an appointment without a treatment holds its dentist, in minutes (${BOOKING_RULE_BOUNDS.defaultDurationMinutes.min}..${BOOKING_RULE_BOUNDS.defaultDurationMinutes.max}); a treatment brings its own \`duration_minutes\`. Availability offers a start only when the whole appointment fits. Set it to the clinic's \`default_duration_minutes\``,
  ),
  // Never derived from APP_SECRET_KEY: rotating the app key must not void every reference patients hold.
  BOOKING_REF_SECRET: z
    .string()
    .min(32)
    .describe(
      'the secret booking references are made with (32+ characters, e.g. `openssl rand -base64 32`), the same on every instance of the clinic\'s BFF; `npm start` and `npm run dev` make one in `.env`',
    ),
  BOOKING_REF_SECRET_PREVIOUS: z
    .string()
    .default('')
    .transform((value) => value.split(',').map((secret) => secret.trim()).filter(Boolean))
    .describe(
      'comma list of earlier `BOOKING_REF_SECRET`s: references made with them are still read, new ones are made with `BOOKING_REF_SECRET` only. Also where the app secret goes of a BFF that ran before `BOOKING_REF_SECRET` was required (its references were made from that)',
    ),
  DATABASE_URL: z
    .string()
    .min(1)
    .default('file:data/bff.db')
    .describe(
      "the BFF's own database, where its sites live (see [docs/sites.md](sites.md)): `file:` (or a path) for a SQLite file, `postgres://` or `postgresql://` for PostgreSQL; never the reference server's database. Migrated when opened. The BFF always opens it: the outbox of messages to clinics and patients' change requests live there (docs/operations.md); with `SITE_SECRETS_KEY` set it also serves the sites at `/s/{site_id}`",
    ),
  SITE_SECRETS_KEY: z
    .string()
    .refine((value) => decodeSecretsKey(value) !== undefined, { message: 'must be 32 bytes in base64, e.g. `openssl rand -base64 32`' })
    .optional()
    .describe(
      "the key sites' app secrets are encrypted with in the database (AES-256-GCM): 32 bytes in base64, e.g. `openssl rand -base64 32`. Needed to create a site or rotate its secret; set, the BFF serves the sites of `DATABASE_URL` at `/s/{site_id}`. Keep it out of the database's backups",
    ),
  SITE_SECRETS_KEY_PREVIOUS: z
    .string()
    .refine((value) => decodeSecretsKey(value) !== undefined, { message: 'must be 32 bytes in base64, e.g. `openssl rand -base64 32`' })
    .optional()
    .describe(
      'during a rotation of `SITE_SECRETS_KEY`, the key it replaces: secrets sealed with it are still read until `npm run bff -- sites reencrypt` has sealed every one with the new key',
    ),
  OUTBOUND_ALLOWLIST: outboundAllowlist.describe(
    "comma list of `host`, `host:port` or CIDR ranges (`10.20.0.0/16`, `fd00::/8`) the BFF may reach although they are not public addresses: a clinic's pictures on an internal host, and for `sites create`, a site's `upstream_url`. Empty, the BFF fetches a picture only from a public address or from its site's own upstream origin (scheme, host and port of its API URL); loopback, private, link-local and other internal addresses are refused ([security.md](security.md#outbound-calls))",
  ),
  DEMO_PAGE: z
    .stringbool()
    .default(false)
    .describe('`true`: serve the demo page at `/` (`npm start` and `npm run dev` set it); a clinic\'s BFF serves only `/api`, `/widget` and its health checks'),
  WIDGET_DIR: z.string().default('widget/dist').describe('the built widget (Vite\'s output)'),
  WIDGET_DEV_URL: z
    .url()
    .transform((url) => url.replace(/\/$/, ''))
    .optional()
    .describe('`npm run dev` only: Vite\'s dev server, to which `/widget/*` and its hot-reload websocket are proxied instead of serving `WIDGET_DIR`'),
  ...NotificationSettingsSchema,
});

/** The settings of the clinic served at /api and /widget (the default site): all of them, or none beside sites. */
const DEFAULT_CLINIC_SETTINGS = ['UPSTREAM_URL', 'APP_KEY', 'APP_SECRET_KEY'] as const;

/**
 * A BFF serves a default clinic, the sites of its database (SITE_SECRETS_KEY),
 * or both. So the default clinic's settings are all given or none; none only
 * beside sites, and then there is no demo page (it shows the default clinic).
 * Checked with every other setting (`when`), so one error names all that is wrong.
 */
const defaultClinicOrSites = z.superRefine<z.output<typeof BffConfigSchema>>(
  (settings, ctx) => {
    const given = DEFAULT_CLINIC_SETTINGS.filter((name) => settings[name] !== undefined);
    const missing = DEFAULT_CLINIC_SETTINGS.filter((name) => settings[name] === undefined);
    const problem = (path: string, message: string) => ctx.addIssue({ code: 'custom', path: [path], message });
    for (const { path, message } of notificationSettingProblems(settings)) problem(path, message);
    // A manage link opens the booking page with the widget on it, which only an allowed origin may hold.
    const bookingPage = settings.BOOKING_PAGE_URL && new URL(settings.BOOKING_PAGE_URL).origin;
    if (bookingPage && !settings.ALLOWED_ORIGINS.includes(bookingPage) && settings.PUBLIC_ORIGIN !== bookingPage) {
      problem('BOOKING_PAGE_URL', 'must be on one of ALLOWED_ORIGINS (or PUBLIC_ORIGIN): the widget cannot run on any other page');
    }
    if (given.length > 0) {
      for (const name of missing) problem(name, `required with ${given.join(' and ')}: the clinic served at /api needs ${DEFAULT_CLINIC_SETTINGS.join(', ')}`);
      return;
    }
    if (settings.SITE_SECRETS_KEY === undefined) {
      problem(missing.join(', '), 'required: the clinic this BFF serves at /api; or set SITE_SECRETS_KEY to serve only the sites of DATABASE_URL, docs/sites.md');
      return;
    }
    if (settings.DEMO_PAGE) problem('DEMO_PAGE', `the demo page shows the clinic served at /api, which needs ${DEFAULT_CLINIC_SETTINGS.join(', ')}`);
  },
  { when: () => true },
);

export interface SitesConfig {
  databaseUrl: string;
  /** SITE_SECRETS_KEY, decoded; absent, nothing can be sealed or opened. */
  secretsKey?: Buffer;
  /** SITE_SECRETS_KEY_PREVIOUS, decoded: still opens, never seals. */
  previousSecretsKey?: Buffer;
}

/**
 * The BFF's settings, every one of them set: what BffConfigSchema parsed, with
 * its defaults. Code receives this whole and applies no default of its own;
 * a config built in code (a test) starts from the schema's defaults too
 * (parseBffConfig). Only what has no default may be absent.
 */
/** The clinic of UPSTREAM_URL, APP_KEY and APP_SECRET_KEY: the default site, served at /api and /widget. */
export interface DefaultClinic {
  upstreamUrl: string;
  appKey: string;
  appSecretKey: string;
}

export interface BffConfig extends CoreConfig {
  /** DATABASE_URL: the BFF's own database (sites, outbox, change requests), always opened by main.ts. */
  databaseUrl: string;
  /** Absent in a BFF of sites only (SITE_SECRETS_KEY set, no APP_KEY): then /api and /widget answer 404. */
  defaultClinic?: DefaultClinic;
  allowedOrigins: string[];
  /** PUBLIC_ORIGIN: the BFF's own origin, allowed by CORS; none when absent. */
  publicOrigin?: string;
  cache: { ttlMs: number; maxStaleMs: number; maxBytes: number };
  upstreamTimeoutMs: number;
  bookingTimeoutMs: number;
  upstreamMaxBodyBytes: number;
  upstreamReadBudget: number;
  /** UPSTREAM_MAX_IN_FLIGHT_PER_SITE: one site's upstream requests in flight at most. */
  upstreamMaxInFlightPerSite: number;
  /** TOKEN_EXCHANGES_MAX_IN_FLIGHT: token exchanges in flight at most, all sites together. */
  tokenExchangesMaxInFlight: number;
  apiRateLimit: RateWindow;
  bookingRateLimit: RateWindow;
  statusRateLimit: RateWindow;
  /** CHANGE_RATE_LIMIT: change requests per client IP. */
  changeRateLimit: RateWindow;
  /** CHANGE_BOOKING_RATE_LIMIT: change requests per booking (site and appointment), from any IP. */
  changeBookingRateLimit: RateWindow;
  availabilityMaxSlots: number;
  clinicTimeZone: string;
  /** BOOKING_MIN_NOTICE_MINUTES, BOOKING_HORIZON_DAYS and BOOKING_DEFAULT_DURATION_MINUTES: the clinic's rules, as this BFF is told them. */
  bookingRules: BookingRules;
  /** The key new booking references are made with (BOOKING_REF_SECRET). */
  referenceKey: Buffer;
  /** BOOKING_REF_SECRET_PREVIOUS: keys references are still read with, after referenceKey. */
  previousReferenceKeys: readonly Buffer[];
  /** OUTBOUND_ALLOWLIST: internal hosts and ranges the BFF may reach on a clinic's word (bff/outbound/). */
  outboundAllowlist: OutboundAllowlist;
  /** DEMO_PAGE: the demo page at GET /. */
  demoPage: boolean;
  widgetDir: string;
  /** Vite's dev server (WIDGET_DEV_URL), when /widget is proxied to it; absent in production. */
  widgetDevUrl?: string;
  /** REDIS_KEY_PREFIX, the schema's default when unset. */
  redisKeyPrefix: string;
  /**
   * SITE_SECRETS_KEY set: the BFF serves the sites of its own database
   * (DATABASE_URL) at /s/{site_id}, beside the env clinic. Unset, it opens no
   * database and serves the env clinic alone, as before sites.
   */
  sites?: SitesConfig;
  /** The SMTP relay, the default site's channels and change rules, the outbox worker's timing. */
  notifications: NotificationConfig;
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
  const e = parseSettings(BffConfigSchema.check(defaultClinicOrSites), env, 'BFF');
  return {
    ...coreConfig(e),
    databaseUrl: e.DATABASE_URL,
    redisKeyPrefix: e.REDIS_KEY_PREFIX,
    ...(e.UPSTREAM_URL !== undefined && e.APP_KEY !== undefined && e.APP_SECRET_KEY !== undefined
      ? { defaultClinic: { upstreamUrl: e.UPSTREAM_URL, appKey: e.APP_KEY, appSecretKey: e.APP_SECRET_KEY } }
      : {}),
    allowedOrigins: e.ALLOWED_ORIGINS,
    publicOrigin: e.PUBLIC_ORIGIN,
    cache: { ttlMs: e.CACHE_TTL_MS, maxStaleMs: e.CACHE_MAX_STALE_MS, maxBytes: e.CACHE_MAX_BYTES },
    upstreamTimeoutMs: e.UPSTREAM_TIMEOUT_MS,
    bookingTimeoutMs: e.BOOKING_TIMEOUT_MS,
    upstreamMaxBodyBytes: e.UPSTREAM_MAX_BODY_BYTES,
    upstreamReadBudget: e.UPSTREAM_READ_BUDGET,
    upstreamMaxInFlightPerSite: e.UPSTREAM_MAX_IN_FLIGHT_PER_SITE,
    tokenExchangesMaxInFlight: e.TOKEN_EXCHANGES_MAX_IN_FLIGHT,
    apiRateLimit: rateWindow(e, 'API'),
    bookingRateLimit: rateWindow(e, 'BOOKING'),
    statusRateLimit: rateWindow(e, 'STATUS'),
    changeRateLimit: rateWindow(e, 'CHANGE'),
    changeBookingRateLimit: rateWindow(e, 'CHANGE_BOOKING'),
    availabilityMaxSlots: e.AVAILABILITY_MAX_SLOTS,
    clinicTimeZone: e.CLINIC_TIMEZONE,
    bookingRules: {
      minNoticeMinutes: e.BOOKING_MIN_NOTICE_MINUTES,
      horizonDays: e.BOOKING_HORIZON_DAYS,
      defaultDurationMinutes: e.BOOKING_DEFAULT_DURATION_MINUTES,
    },
    referenceKey: deriveReferenceKey(e.BOOKING_REF_SECRET),
    previousReferenceKeys: e.BOOKING_REF_SECRET_PREVIOUS.map(deriveReferenceKey),
    outboundAllowlist: parseOutboundAllowlist(e.OUTBOUND_ALLOWLIST),
    demoPage: e.DEMO_PAGE,
    widgetDir: e.WIDGET_DIR,
    widgetDevUrl: e.WIDGET_DEV_URL,
    notifications: notificationConfig(e),
    ...(e.SITE_SECRETS_KEY === undefined
      ? {}
      : {
          sites: {
            databaseUrl: e.DATABASE_URL,
            secretsKey: decodeSecretsKey(e.SITE_SECRETS_KEY),
            ...(e.SITE_SECRETS_KEY_PREVIOUS === undefined ? {} : { previousSecretsKey: decodeSecretsKey(e.SITE_SECRETS_KEY_PREVIOUS) }),
          },
        }),
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
