import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import type { Clock } from '../../platform/clock.js';
import { describeIssues } from '../../platform/validation.js';
import { originMatcher } from '../http/origin-matcher.js';
import { MAIL_LANGUAGES } from '../notifications/mail-language.js';
import {
  CHANGE_NOTICE_HOURS_BOUNDS,
  dkimDomain,
  dkimPrivateKeyPem,
  dkimSelector,
  DKIM_MIN_KEY_BITS,
  emailAddress,
  REMINDER_HOURS_BOUNDS,
  smtpUrl,
  webhookSecret,
  webhookUrl,
} from '../notifications/notification-settings.js';
import { SiteStore, type SiteChangeRuleChanges, type SiteNotificationChanges, type SitePatientMailChanges } from '../sites/site.store.js';
import { outboundRefusal, upstreamRefusal } from '../sites/site-upstream.js';
import type { OutboundPolicy } from '../outbound/outbound-policy.js';
import { SiteFile, SiteKeyPair, SiteOrigin, viewOf, type SiteRecord } from '../sites/site.js';

export interface SitesCliDeps {
  store: SiteStore;
  clock: Clock;
  /** The rule a site's upstream_url must pass (OUTBOUND_ALLOWLIST): no address inside a network unless allowed. */
  outbound: OutboundPolicy;
  /**
   * Standard input, read whole: where `rotate-secret` takes the new key pair,
   * `--webhook-secret -` the secret and `--smtp-url -` a relay URL with its
   * password (never from an argument, which `ps` shows).
   */
  readInput: () => Promise<string>;
  /** One audit line per change: what, which site, when; never a secret. */
  audit: (entry: { event: string; site_id?: string; at: string; [detail: string]: unknown }) => void;
  /**
   * Tells the running BFFs at once that a site changed (REDIS_URL set). Never
   * fails a command: a change not announced is still seen by every BFF's
   * polling of the table within seconds.
   */
  announce?: (siteId: string) => Promise<void>;
}

/** A mistake in how the command was called or what it names: one line, exit code 2. */
export class CliError extends Error {}

export const USAGE = `usage: bff sites <command>
  sites create --file site.json               create a site; prints {"site_id": "cbs_…"}
  sites list                                  every site (never a secret)
  sites show --site ID                        one site (never a secret)
  sites set-origins --site ID --origins A,B   replace its allowed origins
  sites rotate-secret --site ID               new {"app_key", "app_secret_key"} JSON read from standard input
  sites suspend --site ID | resume --site ID  stop or restart serving it
  sites delete --site ID                      delete it
  sites reencrypt                             seal every site's secrets again under SITE_SECRETS_KEY
  sites set-notifications --site ID           where the clinic hears of bookings and change requests:
      [--email ADDR | --no-email] [--language en|de|fr|es|nl|ar]
      [--webhook-url URL] [--webhook-secret whsec_… | --webhook-secret - (from standard input)
       | --generate-webhook-secret (printed once)] [--no-webhook]
  sites set-change-rules --site ID            how patients may ask to cancel or move (default: the BFF's CHANGE_REQUEST_*):
      [--min-notice-hours N|default] [--move on|off|default] [--text TEXT | --no-text]
      [--booking-page-url URL | --no-booking-page-url]
  sites set-patient-mail --site ID            how its e-mail leaves, to the clinic and to patients (default: the BFF's):
      [--from ADDR] [--smtp-url URL | --smtp-url - (from standard input)] [--clear-relay]
      [--dkim-domain D --dkim-selector S --dkim-key-file PATH|-] [--clear-dkim] [--reminder-hours N|default]`;

/** Every option any command takes; each command names its own (COMMAND_OPTIONS). */
const OPTIONS = {
  file: { type: 'string' },
  site: { type: 'string' },
  origins: { type: 'string' },
  email: { type: 'string' },
  'no-email': { type: 'boolean' },
  language: { type: 'string' },
  'webhook-url': { type: 'string' },
  'webhook-secret': { type: 'string' },
  'generate-webhook-secret': { type: 'boolean' },
  'no-webhook': { type: 'boolean' },
  'min-notice-hours': { type: 'string' },
  move: { type: 'string' },
  text: { type: 'string' },
  'no-text': { type: 'boolean' },
  'booking-page-url': { type: 'string' },
  'no-booking-page-url': { type: 'boolean' },
  from: { type: 'string' },
  'smtp-url': { type: 'string' },
  'clear-relay': { type: 'boolean' },
  'dkim-domain': { type: 'string' },
  'dkim-selector': { type: 'string' },
  'dkim-key-file': { type: 'string' },
  'clear-dkim': { type: 'boolean' },
  'reminder-hours': { type: 'string' },
} as const;
type OptionName = keyof typeof OPTIONS;
type Options = { [name in OptionName]?: (typeof OPTIONS)[name]['type'] extends 'string' ? string : boolean };
type Command = (options: Options, deps: SitesCliDeps) => Promise<unknown>;

/** The options each command takes: any other is refused as unknown, so a flag given to the wrong command is never ignored. */
const COMMAND_OPTIONS: Record<string, readonly OptionName[]> = {
  create: ['file'],
  list: [],
  show: ['site'],
  'set-origins': ['site', 'origins'],
  'rotate-secret': ['site'],
  suspend: ['site'],
  resume: ['site'],
  delete: ['site'],
  reencrypt: [],
  'set-notifications': ['site', 'email', 'no-email', 'language', 'webhook-url', 'webhook-secret', 'generate-webhook-secret', 'no-webhook'],
  'set-change-rules': ['site', 'min-notice-hours', 'move', 'text', 'no-text', 'booking-page-url', 'no-booking-page-url'],
  'set-patient-mail': ['site', 'from', 'smtp-url', 'clear-relay', 'dkim-domain', 'dkim-selector', 'dkim-key-file', 'clear-dkim', 'reminder-hours'],
};

/** Recognises the command and parses its options before the database is opened, so a typo creates no file. */
export function parseSitesCommand(argv: string[]): (deps: SitesCliDeps) => Promise<unknown> {
  const [group, action, ...args] = argv;
  const handler = group === 'sites' && action ? COMMANDS[action] : undefined;
  if (!handler) {
    const named = [group, action].filter(Boolean).join(' ');
    throw new CliError(named ? `unknown command: ${named} (sites ${Object.keys(COMMANDS).join(', ')})` : USAGE);
  }
  const options = Object.fromEntries((COMMAND_OPTIONS[action!] ?? []).map((name) => [name, OPTIONS[name]]));
  const { values } = parseArgs({ args, options, strict: true });
  return (deps) => handler(values as Options, deps);
}

const COMMANDS: Record<string, Command> = {
  create: async ({ file }, { store, clock, outbound, audit, announce }) => {
    const path = required(file, '--file');
    let text: string;
    try {
      text = await readFile(path, 'utf8');
    } catch (error) {
      throw new CliError(`cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? 'unreadable'}`);
    }
    const site = parsed(SiteFile, parseJson(text, path), 'invalid site file');
    const refused = await upstreamRefusal(outbound, site.upstream_url);
    if (refused) throw new CliError(refused);
    const now = clock.now();
    const siteId = await store.create(site, now);
    audit({ event: 'site.created', site_id: siteId, at: now.toISOString() });
    await announce?.(siteId);
    return { site_id: siteId };
  },
  list: async (_options, { store }) => (await store.list()).map(viewOf),
  show: async ({ site }, { store }) => viewOf(known(await store.get(required(site, '--site')), site)),
  'set-origins': async ({ site, origins }, { store, clock, audit, announce }) => {
    const siteId = required(site, '--site');
    const entries = required(origins, '--origins').split(',').map((entry) => entry.trim()).filter(Boolean);
    const canonical = entries.map((entry) => parsed(SiteOrigin, entry, '--origins'));
    const now = clock.now();
    const updated = known(await store.setOrigins(siteId, canonical, now), siteId);
    audit({ event: 'site.origins_set', site_id: siteId, at: now.toISOString(), origins: updated.allowed_origins });
    await announce?.(siteId);
    return viewOf(updated);
  },
  'rotate-secret': async ({ site }, { store, clock, readInput, audit, announce }) => {
    const siteId = required(site, '--site');
    known(await store.get(siteId), siteId);
    const pair = parsed(SiteKeyPair, parseJson(await readInput(), 'standard input'), 'invalid key pair on standard input');
    const now = clock.now();
    const updated = known(await store.rotateSecret(siteId, pair, now), siteId);
    audit({ event: 'site.secret_rotated', site_id: siteId, at: now.toISOString() });
    await announce?.(siteId);
    return viewOf(updated);
  },
  suspend: (options, deps) => setStatus(options, deps, 'suspended'),
  resume: (options, deps) => setStatus(options, deps, 'active'),
  delete: async ({ site }, { store, clock, audit, announce }) => {
    const siteId = required(site, '--site');
    if (!(await store.delete(siteId))) throw unknownSite(siteId);
    const now = clock.now();
    audit({ event: 'site.deleted', site_id: siteId, at: now.toISOString() });
    await announce?.(siteId);
    return { site_id: siteId, deleted: true };
  },
  'set-notifications': (options, deps) => setNotifications(options, deps),
  'set-change-rules': (options, deps) => setChangeRules(options, deps),
  'set-patient-mail': (options, deps) => setPatientMail(options, deps),
  // Not announced: the secrets are the same, only sealed anew; the BFFs' polling sees the new updated_at.
  reencrypt: async (_options, { store, clock, audit }) => {
    const now = clock.now();
    const count = await store.reencryptAll(now);
    audit({ event: 'sites.reencrypted', at: now.toISOString(), sites: count });
    return { reencrypted: count };
  },
};

async function setStatus({ site }: Options, { store, clock, audit, announce }: SitesCliDeps, status: 'active' | 'suspended') {
  const siteId = required(site, '--site');
  const now = clock.now();
  const updated = known(await store.setStatus(siteId, status, now), siteId);
  audit({ event: status === 'active' ? 'site.resumed' : 'site.suspended', site_id: siteId, at: now.toISOString() });
  await announce?.(siteId);
  return viewOf(updated);
}

/**
 * `set-notifications`: the site's e-mail address and language, and its
 * webhook. Each flag left out leaves that setting as it is. A webhook needs
 * its URL and its secret: a new URL alone keeps the secret, a new secret
 * alone keeps the URL (a rotation). The URL passes the outbound rule now, as
 * an upstream_url does, and again at every delivery. A generated secret is
 * printed this once, beside the site; the audit line names what changed,
 * never an address's secret.
 */
async function setNotifications(options: Options, { store, clock, outbound, readInput, audit, announce }: SitesCliDeps) {
  const siteId = required(options.site, '--site');
  exclusive(options, ['email', 'no-email']);
  exclusive(options, ['webhook-secret', 'generate-webhook-secret']);
  for (const other of ['webhook-url', 'webhook-secret', 'generate-webhook-secret'] as const) exclusive(options, ['no-webhook', other]);
  const changes: SiteNotificationChanges = {};
  if (options.email !== undefined) changes.email = flagValue(emailAddress, options.email, '--email');
  if (options['no-email']) changes.email = null;
  if (options.language !== undefined) changes.language = flagValue(z.enum(MAIL_LANGUAGES, { error: `must be one of ${MAIL_LANGUAGES.join(', ')}` }), options.language, '--language');

  let generated: string | undefined;
  if (options['no-webhook']) changes.webhook = null;
  else {
    const url = options['webhook-url'] === undefined ? undefined : flagValue(webhookUrl, options['webhook-url'], '--webhook-url');
    let secret: string | undefined;
    if (options['webhook-secret'] !== undefined) {
      // `-`: from standard input, which `ps` does not show. The value is never repeated: it is a secret even when malformed.
      const given = options['webhook-secret'] === '-' ? (await readInput()).trim() : options['webhook-secret'];
      if (!webhookSecret.safeParse(given).success) throw new CliError(`--webhook-secret ${webhookSecretProblem}`);
      secret = given.trim();
    }
    if (options['generate-webhook-secret']) secret = generated = `whsec_${randomBytes(32).toString('base64')}`;
    if (url !== undefined || secret !== undefined) changes.webhook = { ...(url === undefined ? {} : { url }), ...(secret === undefined ? {} : { secret }) };
  }
  if (Object.keys(changes).length === 0) {
    throw new CliError('nothing to set: give --email, --no-email, --language, --webhook-url, --webhook-secret, --generate-webhook-secret or --no-webhook');
  }

  const current = known(await store.get(siteId), siteId);
  if (changes.webhook && current.notifications.webhook_url === undefined) {
    if (changes.webhook.secret === undefined) throw new CliError('--webhook-url needs --webhook-secret or --generate-webhook-secret: the site has no webhook yet');
    if (changes.webhook.url === undefined) throw new CliError('--webhook-secret needs --webhook-url: the site has no webhook yet');
  }
  if (changes.webhook?.url !== undefined) {
    const refused = await outboundRefusal(outbound, changes.webhook.url, '--webhook-url');
    if (refused) throw new CliError(refused);
  }

  const now = clock.now();
  const updated = known(await store.setNotifications(siteId, changes, now), siteId);
  audit({ event: 'site.notifications_set', site_id: siteId, at: now.toISOString(), changed: changedSettings(options, COMMAND_OPTIONS['set-notifications']!) });
  await announce?.(siteId);
  return generated === undefined ? viewOf(updated) : { ...viewOf(updated), webhook_secret: generated };
}

/**
 * `set-change-rules`: how close to the appointment a change is still
 * taken, whether a move may be asked, the clinic's words beside the
 * actions, and the page manage links open. `default` gives a rule back to
 * the BFF's CHANGE_REQUEST_* setting. The booking page must be on one of
 * the site's allowed origins: the widget is only served there.
 */
async function setChangeRules(options: Options, { store, clock, audit, announce }: SitesCliDeps) {
  const siteId = required(options.site, '--site');
  exclusive(options, ['text', 'no-text']);
  exclusive(options, ['booking-page-url', 'no-booking-page-url']);
  const changes: SiteChangeRuleChanges = {};
  const hours = options['min-notice-hours'];
  if (hours !== undefined) changes.minNoticeHours = hours === 'default' ? null : flagValue(noticeHours, hours, '--min-notice-hours');
  const move = options.move;
  if (move !== undefined) {
    if (!['on', 'off', 'default'].includes(move)) throw new CliError('--move must be on, off or default');
    changes.moveAllowed = move === 'default' ? null : move === 'on';
  }
  if (options.text !== undefined) changes.text = flagValue(changeText, options.text, '--text');
  if (options['no-text']) changes.text = null;
  if (options['no-booking-page-url']) changes.bookingPageUrl = null;
  const page = options['booking-page-url'] === undefined ? undefined : flagValue(bookingPageUrl, options['booking-page-url'], '--booking-page-url');
  if (Object.keys(changes).length === 0 && page === undefined) {
    throw new CliError('nothing to set: give --min-notice-hours, --move, --text, --no-text, --booking-page-url or --no-booking-page-url');
  }

  const current = known(await store.get(siteId), siteId);
  if (page !== undefined) {
    const { origin } = new URL(page);
    if (!originMatcher(current.allowed_origins)(origin)) {
      throw new CliError(`--booking-page-url ${origin} is not one of the site's allowed origins (sites set-origins)`);
    }
    changes.bookingPageUrl = page;
  }

  const now = clock.now();
  const updated = known(await store.setChangeRules(siteId, changes, now), siteId);
  audit({ event: 'site.change_rules_set', site_id: siteId, at: now.toISOString(), changed: changedSettings(options, COMMAND_OPTIONS['set-change-rules']!) });
  await announce?.(siteId);
  return viewOf(updated);
}

/**
 * `set-patient-mail`: how the site's e-mail leaves, to its clinic and to its
 * patients, and when their reminders go. Each flag left out leaves that
 * setting as it is; `--clear-relay` gives the sender and relay back to the
 * BFF's (MAIL_FROM, SMTP_URL), `--clear-dkim` the key (site-settings.ts,
 * siteMailRelayOf, says how the parts combine), `--reminder-hours default`
 * the hours (REMINDER_HOURS_BEFORE). The relay URL is checked as SMTP_URL is
 * and its host passes the outbound rule, as a webhook's does; it may hold a
 * password, so it is best read from standard input (`-`), and neither it nor
 * the DKIM key is ever printed, audited or repeated in a refusal.
 */
async function setPatientMail(options: Options, { store, clock, outbound, readInput, audit, announce }: SitesCliDeps) {
  const siteId = required(options.site, '--site');
  for (const other of ['from', 'smtp-url'] as const) exclusive(options, ['clear-relay', other]);
  for (const other of ['dkim-domain', 'dkim-selector', 'dkim-key-file'] as const) exclusive(options, ['clear-dkim', other]);
  if (options['smtp-url'] === '-' && options['dkim-key-file'] === '-') throw new CliError('--smtp-url - and --dkim-key-file - cannot both read standard input');
  const dkimFlags = (['dkim-domain', 'dkim-selector', 'dkim-key-file'] as const).filter((name) => options[name] !== undefined);
  if (dkimFlags.length > 0 && dkimFlags.length < 3) throw new CliError('--dkim-domain, --dkim-selector and --dkim-key-file go together');

  const changes: SitePatientMailChanges = {};
  if (options.from !== undefined) changes.from = flagValue(emailAddress, options.from, '--from');
  if (options['clear-relay']) Object.assign(changes, { from: null, smtpUrl: null });
  if (options['smtp-url'] !== undefined) {
    const given = options['smtp-url'] === '-' ? (await readInput()).trim() : options['smtp-url'];
    // Never repeated: it may hold the relay's password.
    const checked = smtpUrl.safeParse(given);
    if (!checked.success) throw new CliError(`--smtp-url ${checked.error.issues[0]?.message ?? 'is not valid'}`);
    const refused = await outboundRefusal(outbound, relayHostUrl(checked.data), '--smtp-url');
    if (refused) throw new CliError(refused);
    changes.smtpUrl = checked.data;
  }
  if (options['clear-dkim']) changes.dkim = null;
  if (dkimFlags.length === 3) {
    const domain = flagValue(dkimDomain, options['dkim-domain']!, '--dkim-domain');
    const selector = flagValue(dkimSelector, options['dkim-selector']!, '--dkim-selector');
    const privateKey = dkimPrivateKeyPem(await keyFileText(options['dkim-key-file']!, readInput));
    if (privateKey === undefined) {
      throw new CliError(`--dkim-key-file must hold an unencrypted RSA private key in PEM of ${DKIM_MIN_KEY_BITS} bits or more (openssl genrsa 2048)`);
    }
    changes.dkim = { domain, selector, privateKey };
  }
  const hours = options['reminder-hours'];
  if (hours !== undefined) changes.reminderHoursBefore = hours === 'default' ? null : flagValue(reminderHours, hours, '--reminder-hours');
  if (Object.keys(changes).length === 0) {
    throw new CliError('nothing to set: give --from, --smtp-url, --clear-relay, --dkim-domain with --dkim-selector and --dkim-key-file, --clear-dkim or --reminder-hours');
  }

  const now = clock.now();
  const updated = known(await store.setPatientMail(siteId, changes, now), siteId);
  audit({ event: 'site.patient_mail_set', site_id: siteId, at: now.toISOString(), changed: changedSettings(options, COMMAND_OPTIONS['set-patient-mail']!) });
  await announce?.(siteId);
  return viewOf(updated);
}

/** The relay's host and port as the outbound rule reads a URL (its scheme does not matter to it, its credentials must not reach it). */
function relayHostUrl(relayUrl: string): string {
  const url = new URL(relayUrl);
  const port = url.port || (url.protocol === 'smtps:' ? '465' : '587');
  return `https://${url.hostname}:${port}/`;
}

/** The DKIM key file's text, or standard input's for `-`; a file that cannot be read is named with its error code only. */
async function keyFileText(path: string, readInput: () => Promise<string>): Promise<string> {
  if (path === '-') return readInput();
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    throw new CliError(`cannot read --dkim-key-file ${path}: ${(error as NodeJS.ErrnoException).code ?? 'unreadable'}`);
  }
}

const reminderHoursProblem = `must be a whole number of hours from ${REMINDER_HOURS_BOUNDS.min} (no reminders) to ${REMINDER_HOURS_BOUNDS.max}, or default`;
const reminderHours = z
  .string()
  .trim()
  .regex(/^\d{1,4}$/, { error: reminderHoursProblem })
  .transform(Number)
  .pipe(z.number().max(REMINDER_HOURS_BOUNDS.max, { error: reminderHoursProblem }));

const webhookSecretProblem = 'must be whsec_ then base64 of 24 to 64 random bytes (or --generate-webhook-secret)';

const noticeHours = z.coerce
  .number({ error: 'must be a whole number of hours' })
  .int({ error: 'must be a whole number of hours' })
  .min(CHANGE_NOTICE_HOURS_BOUNDS.min, { error: `must be from ${CHANGE_NOTICE_HOURS_BOUNDS.min} to ${CHANGE_NOTICE_HOURS_BOUNDS.max} hours, or default` })
  .max(CHANGE_NOTICE_HOURS_BOUNDS.max, { error: `must be from ${CHANGE_NOTICE_HOURS_BOUNDS.min} to ${CHANGE_NOTICE_HOURS_BOUNDS.max} hours, or default` });

/** The clinic's words beside the change actions: plain text on one or more lines, as CHANGE_REQUEST_TEXT. */
const changeText = z
  .string()
  .trim()
  .min(1, { error: 'must not be empty (--no-text removes it)' })
  .max(300, { error: 'must be at most 300 characters' })
  // Line breaks are words' business; other control characters and bidi overrides are no text's.
  .refine((text) => !/[\p{Cc}\u202a-\u202e\u2066-\u2069]/u.test(text.replaceAll('\n', '')), { error: 'must be plain text, without control characters' });

const bookingPageUrl = z.url({ protocol: /^https?$/, error: 'must be an http(s) URL of the page the widget is on' });

/** The value a flag gives, parsed by `schema`; refused as `--flag <what is wrong>`, never repeating the value. */
function flagValue<S extends z.ZodType>(schema: S, value: string, flag: string): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  throw new CliError(`${flag} ${result.error.issues[0]?.message ?? 'is not valid'}`);
}

/** Refuses two or more of `names` given together. */
function exclusive(options: Options, names: readonly OptionName[]): void {
  const given = names.filter((name) => options[name] !== undefined && options[name] !== false);
  if (given.length > 1) throw new CliError(`${given.map((name) => `--${name}`).join(' and ')} cannot go together`);
}

/** The settings a command was given (its flags, without --site), for its audit line. */
function changedSettings(options: Options, names: readonly OptionName[]): string[] {
  return names.filter((name) => name !== 'site' && options[name] !== undefined && options[name] !== false);
}

function required(value: string | undefined, flag: string): string {
  if (!value) throw new CliError(`${flag} is required`);
  return value;
}

const unknownSite = (siteId: string | undefined) => new CliError(`unknown site: ${JSON.stringify(siteId ?? '').slice(0, 80)}`);

function known(site: SiteRecord | undefined, siteId: string | undefined): SiteRecord {
  if (!site) throw unknownSite(siteId);
  return site;
}

/**
 * JSON.parse, whose own message is not repeated: it quotes the text around
 * the mistake, which may be an app secret.
 */
function parseJson(text: string, where: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new CliError(`${where} is not valid JSON`);
  }
}

function parsed<S extends z.ZodType>(schema: S, value: unknown, what: string): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const { issues } = result.error;
  // A value checked alone (an origin) has custom issues without a path: their messages say it all.
  const problems = issues.every((issue) => issue.path.length === 0 && issue.code === 'custom') ? issues.map((issue) => issue.message).join('; ') : describeIssues(issues);
  throw new CliError(`${what}: ${problems}`);
}
