import { z } from 'zod';
import { BOOKING_RULE_BOUNDS, DEFAULT_BOOKING_RULES } from '../../contract/rules/booking-rules.js';
import type { MailLanguage } from '../notifications/mail-language.js';
import { canonicalOrigin, OriginError } from './site-origin.js';

/**
 * A site: one clinic's website served by this BFF, beside many others. Its
 * public id goes in the clinic's page; its app key and secret stay on the
 * server, the secret encrypted at rest (site-secrets.ts).
 */

const ianaTimeZone = z.string().refine(
  (zone) => {
    try {
      new Intl.DateTimeFormat('en', { timeZone: zone });
      return zone.includes('/') || zone === 'UTC';
    } catch {
      return false;
    }
  },
  { message: 'must be an IANA time zone such as Europe/London' },
);

/** One allowed origin entry, written in its canonical form; a malformed one is refused naming it. */
export const SiteOrigin = z.string().transform((entry, ctx) => {
  try {
    return canonicalOrigin(entry.trim());
  } catch (error) {
    ctx.addIssue({ code: 'custom', message: error instanceof OriginError ? error.message : 'is not an origin' });
    return z.NEVER;
  }
});

const rule = (name: keyof typeof BOOKING_RULE_BOUNDS) =>
  z.number().int().min(BOOKING_RULE_BOUNDS[name].min).max(BOOKING_RULE_BOUNDS[name].max).default(DEFAULT_BOOKING_RULES[name]);

/** The site's booking rules, with the bounds and defaults the server's clinics have; each may be left out. */
export const SiteBookingRules = z
  .object({
    min_notice_minutes: rule('minNoticeMinutes'),
    horizon_days: rule('horizonDays'),
    default_duration_minutes: rule('defaultDurationMinutes'),
  })
  .strict();

/**
 * The bounds of a site's per-IP limits: 1 to 10,000 requests in a window of
 * 1 s to 24 h (docs/sites.md). Beyond them a limit is no limit (10^12 a
 * millisecond) or a typo that outlives any use (a window of years).
 */
export const SITE_LIMIT_BOUNDS = { limit: { min: 1, max: 10_000 }, windowMs: { min: 1_000, max: 24 * 3600_000 } } as const;

const rateWindow = z
  .object({
    limit: z.number().int().min(SITE_LIMIT_BOUNDS.limit.min).max(SITE_LIMIT_BOUNDS.limit.max),
    window_ms: z.number().int().min(SITE_LIMIT_BOUNDS.windowMs.min).max(SITE_LIMIT_BOUNDS.windowMs.max),
  })
  .strict();

/** Per-site overrides of the BFF's per-IP limits (API_, BOOKING_ and STATUS_RATE_*); a limit left out keeps the setting. */
export const SiteLimits = z.object({ api: rateWindow.optional(), booking: rateWindow.optional(), status: rateWindow.optional() }).strict();

/** The app key pair a site calls upstream with: `rotate-secret` reads it from standard input. */
export const SiteKeyPair = z
  .object({
    app_key: z.string().trim().min(1).max(200),
    app_secret_key: z.string().min(1).max(200),
  })
  .strict();
export type SiteKeyPair = z.output<typeof SiteKeyPair>;

/**
 * What a site is served with beside its row, opened (SiteStore.serving): its
 * key pair and, when it has them, its webhook's secret, its own mail relay's
 * URL and its DKIM private key.
 */
export interface SiteCredentials extends SiteKeyPair {
  webhook_secret?: string;
  smtp_url?: string;
  dkim_private_key?: string;
}

/** The file `sites create --file` reads. A new site is always active. */
export const SiteFile = z
  .object({
    name: z.string().trim().min(1).max(200),
    upstream_url: z
      .url({ protocol: /^https?$/, error: 'must be an http(s) URL, e.g. https://api.clinic.example/api/v1' })
      .transform((url) => url.replace(/\/$/, '')),
    ...SiteKeyPair.shape,
    allowed_origins: z.array(SiteOrigin).max(100).default([]),
    time_zone: ianaTimeZone,
    booking_rules: SiteBookingRules.prefault({}),
    limits: SiteLimits.optional(),
  })
  .strict();
export type SiteFile = z.input<typeof SiteFile>;
export type ParsedSiteFile = z.output<typeof SiteFile>;

export const SITE_STATUSES = ['active', 'suspended'] as const;
export type SiteStatus = (typeof SITE_STATUSES)[number];

/**
 * Where a site tells its clinic of bookings and change requests
 * (`sites set-notifications`): each channel left out is off. The webhook's
 * secret is never here; the store opens it only to serve the site.
 */
export interface SiteChannels {
  email?: string;
  language: MailLanguage;
  webhook_url?: string;
}

/**
 * How a site takes change requests (`sites set-change-rules`): a rule left
 * out follows the BFF's CHANGE_REQUEST_MIN_NOTICE_HOURS or CHANGE_REQUEST_MOVE.
 * The text is the clinic's own words, never another's: left out, none.
 */
export interface SiteChangeRules {
  min_notice_hours?: number;
  move_allowed?: boolean;
  text?: string;
}

/**
 * How a site's e-mail leaves (`sites set-patient-mail`), to its clinic and to
 * its patients: what it leaves out is the BFF's (SMTP_URL, MAIL_FROM,
 * DKIM_*, REMINDER_HOURS_BEFORE; site-settings.ts, siteMailRelayOf). Its
 * relay URL and DKIM key are sealed in the row and never here: only whether
 * it has a relay of its own, and the key's domain and selector.
 */
export interface SiteMail {
  from?: string;
  own_relay: boolean;
  dkim?: { domain: string; selector: string };
  /** 0: no reminders. */
  reminder_hours_before?: number;
}

/** A site as the store keeps it, without its secrets (which only SiteStore.credentials and serving open). */
export interface SiteRecord {
  site_id: string;
  name: string;
  upstream_url: string;
  app_key: string;
  allowed_origins: string[];
  time_zone: string;
  booking_rules: z.output<typeof SiteBookingRules>;
  limits?: z.output<typeof SiteLimits>;
  notifications: SiteChannels;
  change_rules: SiteChangeRules;
  /** The page its manage links open; left out, the page the patient booked on. */
  booking_page_url?: string;
  mail: SiteMail;
  status: SiteStatus;
  created_at: string;
  updated_at: string;
}

/**
 * What `show` and `list` print: never the secret, and the app key only as its
 * first characters, enough to tell which key a site uses without printing a
 * credential.
 */
export type SiteView = Omit<SiteRecord, 'app_key'> & { app_key_hint: string };

/** How much of an app key `show` prints. */
const KEY_HINT_CHARS = 6;

export function viewOf({ app_key, ...site }: SiteRecord): SiteView {
  return { ...site, app_key_hint: `${app_key.slice(0, KEY_HINT_CHARS)}…` };
}
