import { createHash, hkdfSync } from 'node:crypto';
import type { BookingRules } from '../../contract/rules/booking-rules.js';
import type { RateWindow } from '../../platform/config.js';
import type { BffConfig } from '../config.js';
import type { SiteCredentials, SiteRecord } from './site.js';
import type { OpenedSiteSecrets, SiteStore } from './site.store.js';
import type { MailRelay, NotificationConfig, SiteNotifications } from '../notifications/notification-settings.js';
import type { NotifiedSite } from '../notifications/channel-deliverer.js';

/** The site of the env settings (APP_KEY and the rest), served at /api and /widget as before sites. */
export const DEFAULT_SITE = 'default';

/**
 * Everything one site's API is built from (bff/site-api.ts): the env clinic
 * (defaultSiteSettings) and each site of the database (siteSettingsOf) alike.
 * The BFF-wide settings (timeouts, cache TTL, body sizes) stay in BffConfig.
 */
export interface SiteSettings {
  /** DEFAULT_SITE, or a site's public id: on every log line of its requests. */
  siteId: string;
  upstreamUrl: string;
  appKey: string;
  appSecretKey: string;
  /** Exact origins and `https://*.example` wildcards (bff/http/origin-matcher.ts). */
  allowedOrigins: readonly string[];
  /** PUBLIC_ORIGIN, the BFF's own origin, allowed beside them. */
  publicOrigin?: string;
  timeZone: string;
  bookingRules: BookingRules;
  limits: Record<'api' | 'booking' | 'status', RateWindow>;
  /** The key new booking references are made with: the site's own, so no other site reads them. */
  referenceKey: Buffer;
  previousReferenceKeys: readonly Buffer[];
  /** Its part of the Redis key space (after `${REDIS_KEY_PREFIX}bff:`): taken slots, "any dentist" keys, the default site's limits. */
  redisScope: string;
  /**
   * A database site's row revision it was built from (SiteStore.serving): its
   * cached content is kept under it, so that an answer still being fetched by
   * the runtime of an earlier revision is never served by this one.
   */
  revision?: string;
  /** Where the clinic is told of bookings and change requests (each channel absent: off), and its change rules. */
  notifications: SiteNotifications;
}

/**
 * The env clinic, exactly as the BFF served it before sites: its references and
 * Redis keys are unchanged. None in a BFF of sites only (no APP_KEY).
 */
export function defaultSiteSettings(config: BffConfig): SiteSettings | undefined {
  const clinic = config.defaultClinic;
  if (!clinic) return undefined;
  return {
    ...clinicWideSettings(config),
    siteId: DEFAULT_SITE,
    upstreamUrl: clinic.upstreamUrl,
    appKey: clinic.appKey,
    appSecretKey: clinic.appSecretKey,
    referenceKey: config.referenceKey,
    previousReferenceKeys: config.previousReferenceKeys,
    // The app key enters only as a hash, so no key names a credential (as before sites).
    redisScope: createHash('sha256').update(clinic.appKey).digest('hex').slice(0, 16),
    notifications: config.notifications.defaultSite,
  };
}

/**
 * What a BFF of sites only builds from the operations every site serves
 * before any site is asked for: the one router the sites share, the metrics'
 * route templates. A site of these settings is built for its operations'
 * shape alone and never mounted, so nothing calls its upstream (an `.invalid`
 * name, which never resolves) or uses its placeholder keys.
 */
export function operationsTemplateSettings(config: BffConfig): SiteSettings {
  return {
    ...clinicWideSettings(config),
    siteId: 'operations-template',
    upstreamUrl: 'http://operations-template.invalid/api/v1',
    appKey: 'operations-template',
    appSecretKey: 'operations-template',
    referenceKey: config.referenceKey,
    previousReferenceKeys: [],
    redisScope: 'operations-template',
    notifications: config.notifications.defaultSite,
  };
}

/** The env settings the default site reads beside its clinic's own. */
function clinicWideSettings(config: BffConfig): Pick<SiteSettings, 'allowedOrigins' | 'publicOrigin' | 'timeZone' | 'bookingRules' | 'limits'> {
  return {
    allowedOrigins: config.allowedOrigins,
    publicOrigin: config.publicOrigin,
    timeZone: config.clinicTimeZone,
    bookingRules: config.bookingRules,
    limits: { api: config.apiRateLimit, booking: config.bookingRateLimit, status: config.statusRateLimit },
  };
}

/**
 * A site of the database with its opened secrets, read at `revision`; per-IP
 * limits and change rules it does not set are the BFF's settings.
 */
export function siteSettingsOf(site: SiteRecord, credentials: SiteCredentials, config: BffConfig, revision?: string): SiteSettings {
  const override = (window: { limit: number; window_ms: number } | undefined, fallback: RateWindow): RateWindow =>
    window ? { limit: window.limit, windowMs: window.window_ms } : fallback;
  return {
    siteId: site.site_id,
    upstreamUrl: site.upstream_url,
    appKey: credentials.app_key,
    appSecretKey: credentials.app_secret_key,
    allowedOrigins: site.allowed_origins,
    publicOrigin: config.publicOrigin,
    timeZone: site.time_zone,
    bookingRules: {
      minNoticeMinutes: site.booking_rules.min_notice_minutes,
      horizonDays: site.booking_rules.horizon_days,
      defaultDurationMinutes: site.booking_rules.default_duration_minutes,
    },
    limits: {
      api: override(site.limits?.api, config.apiRateLimit),
      booking: override(site.limits?.booking, config.bookingRateLimit),
      status: override(site.limits?.status, config.statusRateLimit),
    },
    referenceKey: siteReferenceKey(config.referenceKey, site.site_id),
    previousReferenceKeys: config.previousReferenceKeys.map((key) => siteReferenceKey(key, site.site_id)),
    redisScope: `site:${site.site_id}`,
    revision,
    notifications: siteNotificationsOf(site, credentials, config.notifications),
  };
}

/**
 * Whether the site can send its patients a confirmation and a reminder by e-mail (the content
 * bundle's offers.confirmation_email): it has a mail relay, and the BFF a PUBLIC_ORIGIN, which the
 * e-mail's unsubscribe link is on.
 */
export const offersPatientMail = (site: Pick<SiteSettings, 'notifications' | 'publicOrigin'>): boolean =>
  site.notifications.mailRelay !== undefined && !!site.publicOrigin;

/**
 * A database site's channels and change rules from its row and its opened
 * secrets (`sites set-notifications`, `sites set-change-rules`,
 * `sites set-patient-mail`): a channel it has not set is off; a rule it has
 * not set is the BFF's (CHANGE_REQUEST_*, REMINDER_HOURS_BEFORE, in `bff`);
 * its mail relay is siteMailRelayOf's. Its text and booking page are its
 * own, never the default site's (CHANGE_REQUEST_TEXT, BOOKING_PAGE_URL name
 * another clinic's). A webhook URL without its opened secret is no webhook.
 */
export function siteNotificationsOf(site: SiteRecord, secrets: OpenedSiteSecrets, bff: Pick<NotificationConfig, 'mailRelay' | 'defaultSite'>): SiteNotifications {
  const { notifications: channels, change_rules: rules } = site;
  const webhookSecret = secrets.webhook_secret;
  const bffRules = bff.defaultSite.changeRules;
  const mailRelay = siteMailRelayOf(site, secrets, bff.mailRelay);
  const reminderHoursBefore = site.mail.reminder_hours_before ?? bff.defaultSite.reminderHoursBefore;
  return {
    ...(channels.email === undefined ? {} : { email: channels.email }),
    language: channels.language,
    ...(channels.webhook_url !== undefined && webhookSecret !== undefined ? { webhook: { url: channels.webhook_url, secret: webhookSecret } } : {}),
    changeRules: {
      minNoticeHours: rules.min_notice_hours ?? bffRules.minNoticeHours,
      moveAllowed: rules.move_allowed ?? bffRules.moveAllowed,
      ...(rules.text === undefined ? {} : { text: rules.text }),
    },
    ...(site.booking_page_url === undefined ? {} : { bookingPageUrl: site.booking_page_url }),
    ...(mailRelay === undefined ? {} : { mailRelay }),
    ...(reminderHoursBefore === undefined ? {} : { reminderHoursBefore }),
  };
}

/**
 * The relay a database site's e-mail goes through, to its clinic and to its
 * patients (and so whether the widget offers patients e-mail at all): each
 * part the site's own (`sites set-patient-mail`) or else the BFF's
 * (`bffRelay`: SMTP_URL, MAIL_FROM, DKIM_*).
 *
 * - The relay: its own URL, else SMTP_URL.
 * - The sender: its own, else MAIL_FROM. A site with only a sender of its
 *   own sends as itself through the BFF's relay, which must be allowed to
 *   send for that domain (its SPF record names the relay).
 * - The DKIM key: its own; else the BFF's, but only while the site sends as
 *   MAIL_FROM: the BFF's key never signs a clinic's own domain (a signature
 *   of another domain does not count for its DMARC, and says the agency
 *   vouches for it). A site with its own sender and no key sends unsigned,
 *   for its relay to sign.
 *
 * undefined when no relay URL or no sender is found: no e-mail for the site.
 * Opened secrets as SiteStore.serving and notifying give them.
 */
export function siteMailRelayOf(
  site: Pick<SiteRecord, 'mail'>,
  secrets: Pick<OpenedSiteSecrets, 'smtp_url' | 'dkim_private_key'>,
  bffRelay: MailRelay | undefined,
): MailRelay | undefined {
  const url = secrets.smtp_url ?? bffRelay?.url;
  const from = site.mail.from ?? bffRelay?.from;
  if (url === undefined || from === undefined) return undefined;
  const own = site.mail.dkim && secrets.dkim_private_key !== undefined
    ? { domainName: site.mail.dkim.domain, keySelector: site.mail.dkim.selector, privateKey: secrets.dkim_private_key }
    : undefined;
  const dkim = own ?? (site.mail.from === undefined ? bffRelay?.dkim : undefined);
  return { url, from, ...(dkim ? { dkim } : {}) };
}

/**
 * Each site's notifications as they are now, for the outbox worker
 * (channel-deliverer.ts), which reads them at every delivery: the default
 * site's from the settings (none in a BFF of sites only), a database site's
 * from its row, named. undefined: no such site (any more).
 */
export function currentSiteNotifications(
  config: Pick<BffConfig, 'defaultClinic' | 'notifications'>,
  store?: Pick<SiteStore, 'notifying'>,
): (siteId: string) => Promise<NotifiedSite | undefined> {
  return async (siteId) => {
    if (siteId === DEFAULT_SITE) return config.defaultClinic ? config.notifications.defaultSite : undefined;
    const found = await store?.notifying(siteId);
    if (!found) return undefined;
    return { ...siteNotificationsOf(found.site, found.secrets, config.notifications), clinicName: found.site.name };
  };
}

/**
 * A site's reference key, derived from the BFF's (BOOKING_REF_SECRET) with
 * the site id bound in: a reference's MAC made for one site fails on every
 * other, so it is 404 there, and no site can read or forge another's. One
 * secret for all sites; its rotation (BOOKING_REF_SECRET_PREVIOUS) works for
 * each. The default site keeps the BFF's key itself, so references patients
 * hold from before sites stay valid.
 */
export function siteReferenceKey(bffKey: Buffer, siteId: string): Buffer {
  return Buffer.from(hkdfSync('sha256', bffKey, siteId, 'booking-reference-site-v1', 64));
}
