import { createPrivateKey } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { positiveIntSetting } from '../../platform/config.js';
import { MAIL_LANGUAGES, type MailLanguage } from './mail-language.js';

/**
 * The settings of the clinic's notifications and of patients' change requests
 * (docs/operations.md, "Telling the clinic"): the SMTP relay and sender every
 * site shares, and the default site's own address, webhook and change rules
 * (a database site keeps its own: `sites set-notifications`,
 * `sites set-change-rules`). Each channel left unset is simply off.
 */

/** `smtp://` (STARTTLS, required except to loopback) or `smtps://` (TLS from the first byte), user and password optional in it. */
export const smtpUrl = z
  .string()
  .refine(
    (value) => {
      try {
        const url = new URL(value);
        return (url.protocol === 'smtp:' || url.protocol === 'smtps:') && url.hostname !== '' && url.pathname.replace(/^\/+/, '') === '';
      } catch {
        return false;
      }
    },
    { message: 'must be smtp://host[:port] or smtps://host[:port], user and password optional in it (smtp://user:pass@mail.example:587)' },
  );

/** One e-mail address: what nodemailer and every relay accept, checked loosely (a relay has the final word). */
export const emailAddress = z
  .string()
  .trim()
  .max(254)
  .regex(/^[^\s@<>",;]+@[^\s@<>",;]+\.[^\s@<>",;]+$/, { message: 'must be one e-mail address, e.g. reception@clinic.example' });

/** An http(s) URL a webhook is POSTed to; where it may point is checked at delivery (bff/outbound/). */
export const webhookUrl = z.url({ protocol: /^https?$/, error: 'must be an http(s) URL, e.g. https://hooks.agency.example/clinic' });

/** A Standard Webhooks secret: `whsec_` then base64 of 24 to 64 random bytes. */
export const webhookSecret = z
  .string()
  .trim()
  .refine(
    (value) => {
      const match = /^whsec_([A-Za-z0-9+/]+={0,2})$/.exec(value);
      if (!match) return false;
      const bytes = Buffer.from(match[1]!, 'base64').length;
      return bytes >= 24 && bytes <= 64;
    },
    { message: 'must be whsec_ then base64 of 24 to 64 random bytes, e.g. whsec_$(openssl rand -base64 32)' },
  );

/** A DKIM signing domain (d=): a DNS name of two labels or more, e.g. `agency.example`. */
export const dkimDomain = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^(?=.{4,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]{0,61}[a-z0-9]$/, { message: 'must be a domain name, e.g. agency.example' });

/** A DKIM selector (s=): one or more DNS labels, e.g. `bookings2026`; its public key is at `{selector}._domainkey.{domain}`. */
export const dkimSelector = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^(?=.{1,63}$)[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*$/, { message: 'must be a DNS label, e.g. bookings2026' });

/** The smallest RSA key a DKIM signature may use (RFC 8301: verifiers must not accept less). */
export const DKIM_MIN_KEY_BITS = 1024;

const DKIM_KEY_PROBLEM = `must be an unencrypted RSA private key in PEM (-----BEGIN PRIVATE KEY----- or -----BEGIN RSA PRIVATE KEY-----) of ${DKIM_MIN_KEY_BITS} bits or more, e.g. from openssl genrsa 2048`;

/**
 * The PEM of a DKIM private key in its one form (PKCS#8), or undefined when
 * `text` is none nodemailer can sign with: RSA, unencrypted, 1024 bits or
 * more. A key written on one line with `\n` for its line breaks (as some
 * secret stores hold it) is read too. Never says why in the key's words.
 */
export function dkimPrivateKeyPem(text: string): string | undefined {
  const pem = !text.includes('\n') && text.includes('\\n') ? text.replaceAll('\\n', '\n') : text;
  try {
    const key = createPrivateKey({ key: pem.trim(), format: 'pem' });
    if (key.asymmetricKeyType !== 'rsa' || (key.asymmetricKeyDetails?.modulusLength ?? 0) < DKIM_MIN_KEY_BITS) return undefined;
    return key.export({ type: 'pkcs8', format: 'pem' }).toString();
  } catch {
    return undefined;
  }
}

/** DKIM_PRIVATE_KEY: the PEM text, checked and in its one form. */
const dkimPrivateKey = z.string().transform((text, ctx) => {
  const pem = dkimPrivateKeyPem(text);
  if (pem === undefined) {
    ctx.addIssue({ code: 'custom', message: DKIM_KEY_PROBLEM });
    return z.NEVER;
  }
  return pem;
});

/** DKIM_PRIVATE_KEY_FILE: a path, read once when the settings are, its PEM checked as DKIM_PRIVATE_KEY's. */
const dkimPrivateKeyFile = z
  .string()
  .min(1)
  .transform((path, ctx) => {
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch (error) {
      ctx.addIssue({ code: 'custom', message: `cannot be read (${(error as NodeJS.ErrnoException).code ?? 'unreadable'})` });
      return z.NEVER;
    }
    const pem = dkimPrivateKeyPem(text);
    if (pem === undefined) {
      ctx.addIssue({ code: 'custom', message: `names a file that ${DKIM_KEY_PROBLEM.replace(/^must be/, 'is not')}` });
      return z.NEVER;
    }
    return pem;
  });

/** How many hours before the appointment a patient's reminder goes (0: none; at most 30 days). */
export const REMINDER_HOURS_BOUNDS = { min: 0, max: 720 } as const;

/**
 * OUTBOX_LEASE_SECONDS' bounds. A lease must outlast any one try, or a second
 * worker takes a message over while its first try still runs and the
 * receiver gets it twice: the longest try is a patient's reminder, whose
 * status lookup upstream is cut at 10 s (STATUS_CHECK_DEADLINE_MS) before
 * its e-mail, cut at 30 s (MAIL_TRY_DEADLINE_MS; a webhook's at 10 s), and
 * 5 s more leave room to read the site's channels and record the outcome.
 * No instance can tell a dead one from a slow one, so this wait is what a
 * message left by a killed instance waits before another delivers it.
 */
export const OUTBOX_LEASE_SECONDS_BOUNDS = { min: 45, max: 3600 } as const;

/** How close to the appointment a change request is still taken, in hours (0 .. 30 days). */
export const CHANGE_NOTICE_HOURS_BOUNDS = { min: 0, max: 720 } as const;

export const NotificationSettingsSchema = {
  SMTP_URL: smtpUrl
    .optional()
    .describe(
      "the SMTP relay the e-mails to clinics and patients go through (but a site's with a relay of its own, `sites set-patient-mail --smtp-url`): `smtp://host:587` (STARTTLS, required except to a loopback address) or `smtps://host:465`, user and password in it or in `SMTP_USER` and `SMTP_PASSWORD`. Unset, no e-mail is sent",
    ),
  SMTP_USER: z.string().min(1).optional().describe("the relay's user name, when not in `SMTP_URL`"),
  SMTP_PASSWORD: z.string().min(1).optional().describe("the relay's password, when not in `SMTP_URL`; never logged"),
  MAIL_FROM: emailAddress
    .optional()
    .describe('the sender of every e-mail, e.g. `bookings@agency.example` (a domain the relay may send for), but a site\'s with a sender of its own (`sites set-patient-mail --from`). Required with `SMTP_URL`'),
  DKIM_DOMAIN: dkimDomain
    .optional()
    .describe(
      "the domain the BFF's e-mail is signed for (DKIM `d=`), e.g. `agency.example`: `MAIL_FROM`'s domain or a parent of it, so that the signature counts for DMARC. With `DKIM_SELECTOR` and `DKIM_PRIVATE_KEY` (or `DKIM_PRIVATE_KEY_FILE`), all or none. Unset, the BFF signs nothing (the relay may sign). A site with its own sender signs with its own key only (`sites set-patient-mail`)",
    ),
  DKIM_SELECTOR: dkimSelector
    .optional()
    .describe('the DKIM selector (`s=`): the public key is published at `{selector}._domainkey.{DKIM_DOMAIN}` as a TXT record'),
  DKIM_PRIVATE_KEY: dkimPrivateKey
    .optional()
    .describe(
      `the DKIM private key: RSA (${DKIM_MIN_KEY_BITS} bits or more, 2048 advised), unencrypted PEM, its line breaks as they are or written \\n; never logged. A key that does not read stops the BFF at start`,
    ),
  DKIM_PRIVATE_KEY_FILE: dkimPrivateKeyFile
    .optional()
    .describe('instead of `DKIM_PRIVATE_KEY`: a file holding the PEM (a mounted secret), read once at start'),
  REMINDER_HOURS_BEFORE: z.coerce
    .number()
    .int()
    .min(REMINDER_HOURS_BOUNDS.min)
    .max(REMINDER_HOURS_BOUNDS.max)
    .default(24)
    .describe(
      `how many hours before the appointment the reminder goes to a patient who asked for e-mail (${REMINDER_HOURS_BOUNDS.min}..${REMINDER_HOURS_BOUNDS.max}; \`0\`: no reminders, only the confirmation). A booking made closer to its start than this gets none. A site may set its own (\`sites set-patient-mail --reminder-hours\`)`,
    ),
  CLINIC_NOTIFY_EMAIL: emailAddress
    .optional()
    .describe("the default site's address for new bookings and change requests. Unset, the default site gets no e-mail"),
  CLINIC_LANGUAGE: z
    .enum(MAIL_LANGUAGES)
    .default('en')
    .describe(`the language of the default site's e-mails to the clinic: ${MAIL_LANGUAGES.join(', ')}`),
  WEBHOOK_URL: webhookUrl
    .optional()
    .describe(
      "where the default site's events (`booking.created`, `booking.cancel_requested`, `booking.move_requested`) are POSTed, signed per Standard Webhooks. A public address, or one `OUTBOUND_ALLOWLIST` allows; redirects are not followed. Unset, no webhook is sent",
    ),
  WEBHOOK_SECRET: webhookSecret
    .optional()
    .describe('the secret the default site\'s webhooks are signed with: `whsec_` and base64 (Standard Webhooks). Required with `WEBHOOK_URL`'),
  CHANGE_REQUEST_MIN_NOTICE_HOURS: z.coerce
    .number()
    .int()
    .min(CHANGE_NOTICE_HOURS_BOUNDS.min)
    .max(CHANGE_NOTICE_HOURS_BOUNDS.max)
    .default(24)
    .describe(
      `how many hours before the appointment a patient may still ask online to cancel or move it (${CHANGE_NOTICE_HOURS_BOUNDS.min}..${CHANGE_NOTICE_HOURS_BOUNDS.max}); closer to it the widget shows the clinic's phone instead, and the BFF refuses the request (\`reason: inside_change_window\`)`,
    ),
  CHANGE_REQUEST_MOVE: z
    .stringbool()
    .default(true)
    .describe('`false`: patients may ask to cancel online but not to move (`reason: move_not_offered`)'),
  CHANGE_REQUEST_TEXT: z
    .string()
    .trim()
    .max(300)
    .optional()
    .describe("the clinic's own words shown beside the change actions, e.g. its cancellation policy (plain text, up to 300 characters)"),
  BOOKING_PAGE_URL: z
    .url({ protocol: /^https?$/, error: 'must be an http(s) URL of the page the widget is on' })
    .optional()
    .describe(
      "the page patients' manage links open (the reference goes after `#`), on one of `ALLOWED_ORIGINS` or `PUBLIC_ORIGIN`. Unset, a link opens the page the patient booked on",
    ),
  OUTBOX_WORKER: z
    .stringbool()
    .default(true)
    .describe('`false`: this instance queues messages but leaves their delivery to the other instances'),
  OUTBOX_RETRY_MAX_DELAY_MS: positiveIntSetting
    .default(5 * 60_000)
    .describe('the longest wait between two tries of one message (they start at 5 s and double, each with random jitter)'),
  OUTBOX_GIVE_UP_HOURS: positiveIntSetting
    .default(24)
    .describe('after this long undelivered a message is dead-lettered (`outbox list --state dead`, `outbox retry`)'),
  OUTBOX_LEASE_SECONDS: z.coerce
    .number()
    .int()
    .min(OUTBOX_LEASE_SECONDS_BOUNDS.min)
    .max(OUTBOX_LEASE_SECONDS_BOUNDS.max)
    .default(60)
    .describe(
      `how long a claimed message is one instance's alone (${OUTBOX_LEASE_SECONDS_BOUNDS.min}..${OUTBOX_LEASE_SECONDS_BOUNDS.max}): what a message left by an instance that died mid-delivery waits before another delivers it. At least ${OUTBOX_LEASE_SECONDS_BOUNDS.min}, longer than any try (a reminder's status lookup, cut at 10 s, then its e-mail, cut at 30 s), so that no message is taken over while its try still runs`,
    ),
  OUTBOX_RETENTION_HOURS: positiveIntSetting
    .default(72)
    .describe('delivered messages are deleted this long after delivery; dead ones this long after they died'),
} as const;

type Parsed = z.output<z.ZodObject<typeof NotificationSettingsSchema>>;

/** The SMTP relay and sender a site's e-mail goes through: the BFF's (SMTP_URL, MAIL_FROM, DKIM_*), or the site's own. */
export interface MailRelay {
  /** SMTP_URL, with SMTP_USER and SMTP_PASSWORD folded in when given beside it. */
  url: string;
  from: string;
  /** DKIM signing (nodemailer's): absent, the mail goes unsigned and the relay may sign it. */
  dkim?: DkimKey;
}

/** A DKIM key: the signing domain (d=), the selector (s=) and the PEM private key. */
export interface DkimKey {
  domainName: string;
  keySelector: string;
  privateKey: string;
}

/** A site's channels and change rules, as the default site's settings give them (a database site's come from its row). */
export interface SiteNotifications {
  /** Where the clinic's e-mail goes; absent, no e-mail for this site. */
  email?: string;
  language: MailLanguage;
  webhook?: { url: string; secret: string };
  changeRules: ChangeRules;
  /** The page a manage link opens; absent, the page the patient booked on. */
  bookingPageUrl?: string;
  /**
   * The relay this site's e-mail goes through (its own, or the BFF's);
   * absent: no e-mail at all for this site, and the widget offers patients none.
   */
  mailRelay?: MailRelay;
  /** Hours before an appointment the patient's reminder goes (REMINDER_HOURS_BEFORE, or the site's); 0 or absent: none. */
  reminderHoursBefore?: number;
}

/** How the clinic takes change requests. */
export interface ChangeRules {
  minNoticeHours: number;
  moveAllowed: boolean;
  /** The clinic's own words beside the actions; absent, none. */
  text?: string;
}

export interface OutboxSettings {
  worker: boolean;
  retryMaxDelayMs: number;
  giveUpMs: number;
  retentionMs: number;
}

/** The outbox worker's settings, and its lease (OUTBOX_LEASE_SECONDS), which it takes as an option of its own. */
export interface OutboxConfig extends OutboxSettings {
  leaseMs: number;
}

export interface NotificationConfig {
  /**
   * The BFF's relay and sender (SMTP_URL, MAIL_FROM; signed with DKIM_* when
   * set), the default site's and what a database site falls back on, field
   * by field (site-settings.ts, siteMailRelayOf). Absent: only a site with
   * its own relay and sender sends e-mail.
   */
  mailRelay?: MailRelay;
  /** The default site's own. */
  defaultSite: SiteNotifications;
  outbox: OutboxConfig;
}

/** Settings that go together: each named in the first needs the second. */
export const NOTIFICATION_PAIRS = [
  ['SMTP_URL', 'MAIL_FROM'],
  ['WEBHOOK_URL', 'WEBHOOK_SECRET'],
  ['WEBHOOK_SECRET', 'WEBHOOK_URL'],
  ['DKIM_DOMAIN', 'DKIM_SELECTOR'],
  ['DKIM_SELECTOR', 'DKIM_DOMAIN'],
] as const;

/**
 * What is wrong with how the notification settings go together (beside each
 * one's own check): a setting of NOTIFICATION_PAIRS without its partner, and
 * DKIM given in part. config.ts reports each with every other problem.
 */
export function notificationSettingProblems(settings: Partial<Record<keyof typeof NotificationSettingsSchema, unknown>>): { path: string; message: string }[] {
  const problems: { path: string; message: string }[] = [];
  for (const [name, needs] of NOTIFICATION_PAIRS) {
    if (settings[name] !== undefined && settings[needs] === undefined) problems.push({ path: needs, message: `required with ${name}` });
  }
  const keys = (['DKIM_PRIVATE_KEY', 'DKIM_PRIVATE_KEY_FILE'] as const).filter((name) => settings[name] !== undefined);
  if (keys.length > 1) problems.push({ path: 'DKIM_PRIVATE_KEY_FILE', message: 'cannot go with DKIM_PRIVATE_KEY: give the key one way' });
  const signing = settings.DKIM_DOMAIN !== undefined || settings.DKIM_SELECTOR !== undefined;
  if (signing && keys.length === 0) problems.push({ path: 'DKIM_PRIVATE_KEY', message: 'required with DKIM_DOMAIN and DKIM_SELECTOR (or DKIM_PRIVATE_KEY_FILE)' });
  if (!signing && keys.length > 0) problems.push({ path: 'DKIM_DOMAIN, DKIM_SELECTOR', message: `required with ${keys[0]}` });
  return problems;
}

export function notificationConfig(e: Parsed): NotificationConfig {
  const privateKey = e.DKIM_PRIVATE_KEY ?? e.DKIM_PRIVATE_KEY_FILE;
  const dkim: DkimKey | undefined =
    e.DKIM_DOMAIN !== undefined && e.DKIM_SELECTOR !== undefined && privateKey !== undefined
      ? { domainName: e.DKIM_DOMAIN, keySelector: e.DKIM_SELECTOR, privateKey }
      : undefined;
  const mailRelay: MailRelay | undefined =
    e.SMTP_URL !== undefined && e.MAIL_FROM !== undefined
      ? { url: withCredentials(e.SMTP_URL, e.SMTP_USER, e.SMTP_PASSWORD), from: e.MAIL_FROM, ...(dkim ? { dkim } : {}) }
      : undefined;
  return {
    ...(mailRelay ? { mailRelay } : {}),
    defaultSite: {
      ...(e.CLINIC_NOTIFY_EMAIL !== undefined ? { email: e.CLINIC_NOTIFY_EMAIL } : {}),
      language: e.CLINIC_LANGUAGE,
      ...(e.WEBHOOK_URL !== undefined && e.WEBHOOK_SECRET !== undefined ? { webhook: { url: e.WEBHOOK_URL, secret: e.WEBHOOK_SECRET } } : {}),
      changeRules: {
        minNoticeHours: e.CHANGE_REQUEST_MIN_NOTICE_HOURS,
        moveAllowed: e.CHANGE_REQUEST_MOVE,
        ...(e.CHANGE_REQUEST_TEXT ? { text: e.CHANGE_REQUEST_TEXT } : {}),
      },
      ...(e.BOOKING_PAGE_URL !== undefined ? { bookingPageUrl: e.BOOKING_PAGE_URL } : {}),
      ...(mailRelay ? { mailRelay } : {}),
      reminderHoursBefore: e.REMINDER_HOURS_BEFORE,
    },
    outbox: {
      worker: e.OUTBOX_WORKER,
      retryMaxDelayMs: e.OUTBOX_RETRY_MAX_DELAY_MS,
      giveUpMs: e.OUTBOX_GIVE_UP_HOURS * 3600_000,
      retentionMs: e.OUTBOX_RETENTION_HOURS * 3600_000,
      leaseMs: e.OUTBOX_LEASE_SECONDS * 1000,
    },
  };
}

/** SMTP_URL with SMTP_USER and SMTP_PASSWORD put in it when given beside it (the URL's own win). */
function withCredentials(url: string, user: string | undefined, password: string | undefined): string {
  const parsed = new URL(url);
  if (!parsed.username && user !== undefined) parsed.username = encodeURIComponent(user);
  if (!parsed.password && password !== undefined) parsed.password = encodeURIComponent(password);
  return parsed.toString();
}
