import type { Kysely, Selectable } from 'kysely';
import { MAIL_LANGUAGES, type MailLanguage } from '../notifications/mail-language.js';
import { newSiteId } from './site-id.js';
import { SiteSecretError, type SiteSecretPurpose, type SiteSecrets } from './site-secrets.js';
import type { ParsedSiteFile, SiteCredentials, SiteKeyPair, SiteRecord, SiteStatus } from './site.js';
import type { SiteRow, SitesTables } from './sites-database.js';

/**
 * The sites, in the BFF's own database. Every write runs in a transaction of
 * its own, so a failure leaves a site as it was; a method given an unknown
 * site id returns undefined (or false) and writes nothing. The app secret is
 * sealed before it reaches SQL and opened only by credentials() and
 * serving(); so are a site's webhook secret, its own mail relay's URL and its
 * DKIM key (by serving() and notifying()).
 */
export class SiteStore {
  constructor(
    private readonly db: Kysely<SitesTables>,
    /** Absent when SITE_SECRETS_KEY is unset: reads work, anything that seals or opens a secret is refused. */
    private readonly secrets?: SiteSecrets,
  ) {}

  /** Creates an active site; returns its new id. */
  async create(file: ParsedSiteFile, now: Date): Promise<string> {
    const secrets = this.requireSecrets();
    const siteId = newSiteId();
    const at = now.toISOString();
    await this.db.transaction().execute((trx) =>
      trx
        .insertInto('sites')
        .values({
          site_id: siteId,
          name: file.name,
          upstream_url: file.upstream_url,
          app_key: file.app_key,
          app_secret_sealed: secrets.seal(siteId, file.app_secret_key),
          allowed_origins: JSON.stringify(file.allowed_origins),
          time_zone: file.time_zone,
          min_notice_minutes: file.booking_rules.min_notice_minutes,
          horizon_days: file.booking_rules.horizon_days,
          default_duration_minutes: file.booking_rules.default_duration_minutes,
          limits: file.limits === undefined ? null : JSON.stringify(file.limits),
          status: 'active',
          created_at: at,
          updated_at: at,
        })
        .execute(),
    );
    return siteId;
  }

  /** Every site, oldest first. */
  async list(): Promise<SiteRecord[]> {
    const rows = await this.db.selectFrom('sites').selectAll().orderBy('created_at').orderBy('site_id').execute();
    return rows.map(recordOf);
  }

  /**
   * Each site's id and revision (revisionOf), nothing else: what an instance
   * checks the sites it holds against to learn which changed or went away
   * (site-changes.ts, site-registry.ts), cheap enough to ask every few seconds.
   */
  async versions(): Promise<Map<string, string>> {
    const rows = await this.db.selectFrom('sites').select(['site_id', 'version', 'updated_at']).execute();
    return new Map(rows.map((row) => [row.site_id, revisionOf(row)]));
  }

  /**
   * What a BFF builds a site from, in one read: the site, the revision it is
   * at, and its secrets opened (an active site's only: a suspended one is
   * served without them). undefined when there is no such site.
   */
  async serving(siteId: string): Promise<ServedSite | undefined> {
    const row = await this.db.selectFrom('sites').selectAll().where('site_id', '=', siteId).executeTakeFirst();
    if (!row) return undefined;
    const site = recordOf(row);
    const revision = revisionOf(row);
    if (site.status === 'suspended') return { status: 'suspended', site, revision };
    const secrets = this.requireSecrets();
    const credentials: SiteCredentials = {
      app_key: row.app_key,
      app_secret_key: secrets.open(siteId, row.app_secret_sealed),
      ...this.openedSecretsOf(row),
    };
    return { status: 'active', site, revision, credentials };
  }

  /**
   * A site as its clinic and patients are told of it (the outbox worker, at
   * each delivery): its row and its secrets of delivery opened (webhook
   * secret, mail relay URL, DKIM key), whatever its status, so that what was
   * accepted before a suspension still goes. undefined when there is no such site.
   */
  async notifying(siteId: string): Promise<{ site: SiteRecord; secrets: OpenedSiteSecrets } | undefined> {
    const row = await this.db.selectFrom('sites').selectAll().where('site_id', '=', siteId).executeTakeFirst();
    if (!row) return undefined;
    return { site: recordOf(row), secrets: this.openedSecretsOf(row) };
  }

  async get(siteId: string): Promise<SiteRecord | undefined> {
    const row = await this.db.selectFrom('sites').selectAll().where('site_id', '=', siteId).executeTakeFirst();
    return row && recordOf(row);
  }

  /** The site's app key and its secret, opened: for calling upstream, never for printing. */
  async credentials(siteId: string): Promise<SiteKeyPair | undefined> {
    const row = await this.db.selectFrom('sites').select(['app_key', 'app_secret_sealed']).where('site_id', '=', siteId).executeTakeFirst();
    if (!row) return undefined;
    return { app_key: row.app_key, app_secret_key: this.requireSecrets().open(siteId, row.app_secret_sealed) };
  }

  /** Replaces the allowed origins (already in canonical form, site.ts). */
  setOrigins(siteId: string, origins: readonly string[], now: Date): Promise<SiteRecord | undefined> {
    return this.update(siteId, now, { allowed_origins: JSON.stringify(origins) });
  }

  /** A new app key pair, the secret sealed afresh (a new nonce) under the current key. */
  rotateSecret(siteId: string, pair: SiteKeyPair, now: Date): Promise<SiteRecord | undefined> {
    const sealed = this.requireSecrets().seal(siteId, pair.app_secret_key);
    return this.update(siteId, now, { app_key: pair.app_key, app_secret_sealed: sealed });
  }

  setStatus(siteId: string, status: SiteStatus, now: Date): Promise<SiteRecord | undefined> {
    return this.update(siteId, now, { status });
  }

  /**
   * Changes the site's channels; what `changes` leaves out stays. A webhook
   * given without a secret keeps the one it had (a new URL), one given a
   * secret seals it afresh; a site never holds a webhook URL without a
   * secret, nor a secret without a URL (WebhookWithoutSecret).
   */
  async setNotifications(siteId: string, changes: SiteNotificationChanges, now: Date): Promise<SiteRecord | undefined> {
    const row: Partial<SiteRow> = {};
    if (changes.email !== undefined) row.notify_email = changes.email;
    if (changes.language !== undefined) row.notify_language = changes.language;
    if (changes.webhook === null) Object.assign(row, { webhook_url: null, webhook_secret_sealed: null });
    else if (changes.webhook !== undefined) {
      const { url, secret } = changes.webhook;
      if (url !== undefined) row.webhook_url = url;
      if (secret !== undefined) row.webhook_secret_sealed = this.requireSecrets().seal(siteId, secret, 'webhook');
    }
    return this.update(siteId, now, row, (updated) => {
      if ((updated.webhook_url === null) !== (updated.webhook_secret_sealed === null)) throw new WebhookWithoutSecret();
    });
  }

  /** Changes the site's change rules and booking page; what `changes` leaves out stays, a null goes back to the default. */
  setChangeRules(siteId: string, changes: SiteChangeRuleChanges, now: Date): Promise<SiteRecord | undefined> {
    const row: Partial<SiteRow> = {};
    if (changes.minNoticeHours !== undefined) row.change_min_notice_hours = changes.minNoticeHours;
    if (changes.moveAllowed !== undefined) row.change_move_allowed = changes.moveAllowed === null ? null : changes.moveAllowed ? 1 : 0;
    if (changes.text !== undefined) row.change_text = changes.text;
    if (changes.bookingPageUrl !== undefined) row.booking_page_url = changes.bookingPageUrl;
    return this.update(siteId, now, row);
  }

  /**
   * Changes how the site's e-mail leaves; what `changes` leaves out stays, a
   * null goes back to the BFF's. The relay URL and the DKIM key are sealed
   * afresh; a site never holds a DKIM domain without its selector and key.
   */
  setPatientMail(siteId: string, changes: SitePatientMailChanges, now: Date): Promise<SiteRecord | undefined> {
    const row: Partial<SiteRow> = {};
    if (changes.from !== undefined) row.mail_from = changes.from;
    if (changes.smtpUrl !== undefined) row.smtp_url_sealed = changes.smtpUrl === null ? null : this.requireSecrets().seal(siteId, changes.smtpUrl, 'smtp-url');
    if (changes.dkim === null) Object.assign(row, { dkim_domain: null, dkim_selector: null, dkim_private_key_sealed: null });
    else if (changes.dkim !== undefined) {
      const { domain, selector, privateKey } = changes.dkim;
      Object.assign(row, { dkim_domain: domain, dkim_selector: selector, dkim_private_key_sealed: this.requireSecrets().seal(siteId, privateKey, 'dkim-key') });
    }
    if (changes.reminderHoursBefore !== undefined) row.reminder_hours_before = changes.reminderHoursBefore;
    return this.update(siteId, now, row);
  }

  /** Deletes the site; false when there was none. */
  async delete(siteId: string): Promise<boolean> {
    const result = await this.db.transaction().execute((trx) => trx.deleteFrom('sites').where('site_id', '=', siteId).executeTakeFirst());
    return result.numDeletedRows > 0n;
  }

  /**
   * Seals every site's secrets (app and webhook) again under the current key, all in one
   * transaction: a secret no configured key opens stops it, and nothing is
   * changed. Returns how many sites were sealed again.
   */
  async reencryptAll(now: Date): Promise<number> {
    const secrets = this.requireSecrets();
    return this.db.transaction().execute(async (trx) => {
      const rows = await trx
        .selectFrom('sites')
        .select(['site_id', 'app_secret_sealed', 'webhook_secret_sealed', 'smtp_url_sealed', 'dkim_private_key_sealed'])
        .orderBy('created_at')
        .orderBy('site_id')
        .execute();
      for (const row of rows) {
        const again = (sealed: string | null, purpose: SiteSecretPurpose) =>
          sealed === null ? null : secrets.seal(row.site_id, secrets.open(row.site_id, sealed, purpose), purpose);
        await trx
          .updateTable('sites')
          .set((eb) => ({
            app_secret_sealed: again(row.app_secret_sealed, 'app')!,
            webhook_secret_sealed: again(row.webhook_secret_sealed, 'webhook'),
            smtp_url_sealed: again(row.smtp_url_sealed, 'smtp-url'),
            dkim_private_key_sealed: again(row.dkim_private_key_sealed, 'dkim-key'),
            updated_at: now.toISOString(),
            version: eb('version', '+', 1),
          }))
          .where('site_id', '=', row.site_id)
          .execute();
      }
      return rows.length;
    });
  }

  /** Writes `changes` and moves the version; `check` sees the row as written and may throw, which undoes it. */
  private async update(
    siteId: string,
    now: Date,
    changes: Partial<SiteRow>,
    check?: (row: Selectable<SiteRow>) => void,
  ): Promise<SiteRecord | undefined> {
    return this.db.transaction().execute(async (trx) => {
      const result = await trx
        .updateTable('sites')
        .set((eb) => ({ ...changes, updated_at: now.toISOString(), version: eb('version', '+', 1) }))
        .where('site_id', '=', siteId)
        .executeTakeFirst();
      if (result.numUpdatedRows === 0n) return undefined;
      const row = await trx.selectFrom('sites').selectAll().where('site_id', '=', siteId).executeTakeFirstOrThrow();
      check?.(row);
      return recordOf(row);
    });
  }

  /** The row's secrets of delivery, opened: each it does not have is left out. */
  private openedSecretsOf(row: Pick<SiteRow, 'site_id' | 'webhook_secret_sealed' | 'smtp_url_sealed' | 'dkim_private_key_sealed'>): OpenedSiteSecrets {
    const open = (sealed: string | null, purpose: SiteSecretPurpose) => (sealed === null ? undefined : this.requireSecrets().open(row.site_id, sealed, purpose));
    const [webhookSecret, smtpUrl, dkimPrivateKey] = [
      open(row.webhook_secret_sealed, 'webhook'),
      open(row.smtp_url_sealed, 'smtp-url'),
      open(row.dkim_private_key_sealed, 'dkim-key'),
    ];
    return {
      ...(webhookSecret === undefined ? {} : { webhook_secret: webhookSecret }),
      ...(smtpUrl === undefined ? {} : { smtp_url: smtpUrl }),
      ...(dkimPrivateKey === undefined ? {} : { dkim_private_key: dkimPrivateKey }),
    };
  }

  private requireSecrets(): SiteSecrets {
    if (!this.secrets) throw new SiteSecretError('SITE_SECRETS_KEY is not set: it is needed to seal or open a site secret');
    return this.secrets;
  }
}

/** What setNotifications changes; each left out stays as it is. */
export interface SiteNotificationChanges {
  /** null: no e-mail. */
  email?: string | null;
  language?: MailLanguage;
  /** null: no webhook. A URL alone keeps the secret; a secret alone keeps the URL. */
  webhook?: { url?: string; secret?: string } | null;
}

/** What setChangeRules changes; each left out stays, each null goes back to its default (the BFF's rule; no text; no page). */
export interface SiteChangeRuleChanges {
  minNoticeHours?: number | null;
  moveAllowed?: boolean | null;
  text?: string | null;
  bookingPageUrl?: string | null;
}

/** What setPatientMail changes; each left out stays, each null goes back to the BFF's (MAIL_FROM, SMTP_URL, DKIM_*, REMINDER_HOURS_BEFORE). */
export interface SitePatientMailChanges {
  from?: string | null;
  /** Checked already (notification-settings.ts, smtpUrl); sealed by the store. */
  smtpUrl?: string | null;
  /** The three together; the key as PEM (dkimPrivateKeyPem), sealed by the store. */
  dkim?: { domain: string; selector: string; privateKey: string } | null;
  /** 0: no reminders. */
  reminderHoursBefore?: number | null;
}

/** A site's secrets of delivery, opened (SiteCredentials without the key pair). */
export type OpenedSiteSecrets = Omit<SiteCredentials, keyof SiteKeyPair>;

/** A change that would leave a site with a webhook URL and no secret, or a secret and no URL: nothing is written. */
export class WebhookWithoutSecret extends Error {
  constructor() {
    super('a webhook needs both its URL and its secret');
  }
}

/** A site as a BFF builds it (SiteStore.serving), with the revision of the row it was read at (revisionOf). */
export type ServedSite =
  | { status: 'active'; site: SiteRecord; revision: string; credentials: SiteCredentials }
  | { status: 'suspended'; site: SiteRecord; revision: string };

/**
 * Where a site's row is at: its version, which every change the store makes
 * moves, and its `updated_at`, which a change made by hand moves too. Two
 * reads of a row that did not change give the same revision; any change gives
 * another.
 */
function revisionOf(row: { version: number; updated_at: string }): string {
  return `${row.version}@${row.updated_at}`;
}

function recordOf(row: Selectable<SiteRow>): SiteRecord {
  return {
    site_id: row.site_id,
    name: row.name,
    upstream_url: row.upstream_url,
    app_key: row.app_key,
    allowed_origins: JSON.parse(row.allowed_origins) as string[],
    time_zone: row.time_zone,
    booking_rules: {
      min_notice_minutes: row.min_notice_minutes,
      horizon_days: row.horizon_days,
      default_duration_minutes: row.default_duration_minutes,
    },
    ...(row.limits === null ? {} : { limits: JSON.parse(row.limits) as SiteRecord['limits'] }),
    notifications: {
      ...(row.notify_email === null ? {} : { email: row.notify_email }),
      language: (MAIL_LANGUAGES as readonly string[]).includes(row.notify_language ?? '') ? (row.notify_language as MailLanguage) : 'en',
      ...(row.webhook_url === null ? {} : { webhook_url: row.webhook_url }),
    },
    change_rules: {
      ...(row.change_min_notice_hours === null ? {} : { min_notice_hours: Number(row.change_min_notice_hours) }),
      ...(row.change_move_allowed === null ? {} : { move_allowed: Number(row.change_move_allowed) === 1 }),
      ...(row.change_text === null ? {} : { text: row.change_text }),
    },
    ...(row.booking_page_url === null ? {} : { booking_page_url: row.booking_page_url }),
    mail: {
      ...(row.mail_from === null ? {} : { from: row.mail_from }),
      own_relay: row.smtp_url_sealed !== null,
      ...(row.dkim_domain === null || row.dkim_selector === null || row.dkim_private_key_sealed === null
        ? {}
        : { dkim: { domain: row.dkim_domain, selector: row.dkim_selector } }),
      ...(row.reminder_hours_before === null ? {} : { reminder_hours_before: Number(row.reminder_hours_before) }),
    },
    status: row.status as SiteStatus,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}
