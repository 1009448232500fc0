import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadBffConfig } from '../../../bff/config.js';
import { SiteSecretError, SiteSecrets } from '../../../bff/sites/site-secrets.js';
import { currentSiteNotifications, siteSettingsOf } from '../../../bff/sites/site-settings.js';
import { SiteStore } from '../../../bff/sites/site.store.js';
import type { SiteView } from '../../../bff/sites/site.js';
import { openSitesDatabase } from '../../../bff/sites/sites-database.js';
import { auditLines, printed, refusal, sitesCli, type CliResult } from './support/sites-cli.js';
import { siteFile } from './support/site-file.js';
import { ENGINES, sitesTestDatabase, type SitesTestDatabase } from './support/sites-test-database.js';

/** Secrets easy to search for in output and bytes: base64 of 32 bytes each. */
const SECRET = `whsec_${Buffer.from('webhook-secret-of-smile-dental-1').toString('base64')}`;
const ROTATED = `whsec_${Buffer.from('webhook-secret-of-smile-dental-2').toString('base64')}`;

/** The BFF's change rules (CHANGE_REQUEST_*) a site falls back on. */
const bffConfig = () =>
  loadBffConfig(
    {
      UPSTREAM_URL: 'http://127.0.0.1:1/api/v1',
      APP_KEY: 'ck_default',
      APP_SECRET_KEY: 'default-secret',
      BOOKING_REF_SECRET: 'r'.repeat(40),
      CHANGE_REQUEST_MIN_NOTICE_HOURS: '12',
      CHANGE_REQUEST_MOVE: 'false',
      CHANGE_REQUEST_TEXT: "The default clinic's own words",
      BOOKING_PAGE_URL: 'https://default-clinic.example/book',
      ALLOWED_ORIGINS: 'https://default-clinic.example',
      CLINIC_NOTIFY_EMAIL: 'desk@default-clinic.example',
    },
    '/nonexistent/.env',
  );

describe.each(ENGINES)('sites set-notifications and set-change-rules, on %s', { timeout: 90_000 }, (engine) => {
  let testDb: SitesTestDatabase;
  const key = randomBytes(32).toString('base64');
  const outputs: CliResult[] = [];
  const cli = async (args: string[], input = '', env: Record<string, string> = {}) => {
    const result = await sitesCli(args, { DATABASE_URL: testDb.url, SITE_SECRETS_KEY: key, ...env }, input);
    outputs.push(result);
    return result;
  };
  /** The store as a running BFF has it, on a connection of its own, closed after `use`. */
  const withStore = async <T>(use: (store: SiteStore, db: Awaited<ReturnType<typeof openSitesDatabase>>) => Promise<T>, secretsKey = key): Promise<T> => {
    const database = await openSitesDatabase(testDb.url);
    try {
      return await use(new SiteStore(database.db, new SiteSecrets(Buffer.from(secretsKey, 'base64'))), database);
    } finally {
      await database.close();
    }
  };
  const createdSite = async (): Promise<string> => {
    const file = join(testDb.file ? join(testDb.file, '..') : '/tmp', `site-${randomBytes(4).toString('hex')}.json`);
    writeFileSync(file, JSON.stringify(siteFile()));
    return printed<{ site_id: string }>(await cli(['sites', 'create', '--file', file])).site_id;
  };
  const served = (siteId: string) =>
    withStore(async (store) => {
      const site = await store.serving(siteId);
      if (site?.status !== 'active') throw new Error('not served');
      return siteSettingsOf(site.site, site.credentials, bffConfig(), site.revision).notifications;
    });

  beforeAll(async () => {
    testDb = await sitesTestDatabase(engine);
  });
  afterAll(() => testDb.remove());

  it('sets an address, a language and a webhook, shows them without the secret, and serves the site with them', async () => {
    const siteId = await createdSite();

    const result = await cli([
      'sites', 'set-notifications', '--site', siteId,
      '--email', 'reception@smile.example', '--language', 'de',
      '--webhook-url', 'https://hooks.agency.example/clinic', '--webhook-secret', SECRET,
    ]);

    expect(printed<SiteView>(result).notifications).toEqual({ email: 'reception@smile.example', language: 'de', webhook_url: 'https://hooks.agency.example/clinic' });
    expect(auditLines(result)).toEqual([
      { audit: 'site.notifications_set', site_id: siteId, at: expect.any(String), changed: ['email', 'language', 'webhook-url', 'webhook-secret'] },
    ]);
    expect(printed<SiteView>(await cli(['sites', 'show', '--site', siteId])).notifications).toEqual({
      email: 'reception@smile.example',
      language: 'de',
      webhook_url: 'https://hooks.agency.example/clinic',
    });
    expect(await served(siteId)).toEqual({
      email: 'reception@smile.example',
      language: 'de',
      webhook: { url: 'https://hooks.agency.example/clinic', secret: SECRET },
      // Not set by the site: the BFF's rules; never the default clinic's text or page.
      changeRules: { minNoticeHours: 12, moveAllowed: false },
      reminderHoursBefore: 24,
    });
  });

  it('gives a site no channel and the BFF\'s change rules until it sets its own', async () => {
    const siteId = await createdSite();

    expect(printed<SiteView>(await cli(['sites', 'show', '--site', siteId]))).toMatchObject({ notifications: { language: 'en' }, change_rules: {} });
    expect(await served(siteId)).toEqual({ language: 'en', changeRules: { minNoticeHours: 12, moveAllowed: false }, reminderHoursBefore: 24 });
  });

  it('generates a webhook secret, prints it once, and signs with it', async () => {
    const siteId = await createdSite();

    const result = await cli(['sites', 'set-notifications', '--site', siteId, '--webhook-url', 'https://hooks.agency.example/x', '--generate-webhook-secret']);

    const { webhook_secret: generated } = printed<SiteView & { webhook_secret: string }>(result);
    expect(generated).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(result.stderr).not.toContain(generated);
    const shown = await cli(['sites', 'show', '--site', siteId]);
    expect(shown.stdout).not.toContain(generated);
    expect((await served(siteId)).webhook).toEqual({ url: 'https://hooks.agency.example/x', secret: generated });
  });

  it('reads the webhook secret from standard input when told `-`', async () => {
    const siteId = await createdSite();

    printed(await cli(['sites', 'set-notifications', '--site', siteId, '--webhook-url', 'https://hooks.agency.example/in', '--webhook-secret', '-'], `${SECRET}\n`));

    expect((await served(siteId)).webhook?.secret).toBe(SECRET);
  });

  it('seals the webhook secret in its column, bound to the site and to being a webhook secret', async () => {
    const siteId = await createdSite();
    printed(await cli(['sites', 'set-notifications', '--site', siteId, '--webhook-url', 'https://hooks.agency.example/clinic', '--webhook-secret', SECRET]));

    const sealed = await withStore(async (_store, database) =>
      (await database.db.selectFrom('sites').select('webhook_secret_sealed').where('site_id', '=', siteId).executeTakeFirstOrThrow()).webhook_secret_sealed,
    );

    expect(sealed).not.toBeNull();
    expect(sealed).not.toContain(SECRET);
    expect(sealed).not.toContain(SECRET.slice('whsec_'.length));
    const secrets = new SiteSecrets(Buffer.from(key, 'base64'));
    expect(secrets.open(siteId, sealed!, 'webhook')).toBe(SECRET);
    // Not as an app secret (a column copied into another), nor for another site.
    expect(() => secrets.open(siteId, sealed!)).toThrow(SiteSecretError);
    expect(() => secrets.open('cbs_aaaaaaaaaaaaaaaaaaaaaaaaaa', sealed!, 'webhook')).toThrow(SiteSecretError);
  });

  it.runIf(engine === 'sqlite')('leaves no webhook secret in the database file or its WAL', async () => {
    const siteId = await createdSite();
    printed(await cli(['sites', 'set-notifications', '--site', siteId, '--webhook-url', 'https://hooks.agency.example/clinic', '--webhook-secret', SECRET]));
    printed(await cli(['sites', 'set-notifications', '--site', siteId, '--webhook-secret', ROTATED]));

    const bytes = Buffer.concat([testDb.file!, `${testDb.file!}-wal`].filter(existsSync).map((path) => readFileSync(path)));
    for (const secret of [SECRET, ROTATED]) {
      expect(bytes.includes(secret)).toBe(false);
      expect(bytes.includes(secret.slice('whsec_'.length))).toBe(false);
    }
  });

  it('rotates the webhook secret alone, keeping the URL, and moves the URL alone, keeping the secret', async () => {
    const siteId = await createdSite();
    printed(await cli(['sites', 'set-notifications', '--site', siteId, '--webhook-url', 'https://hooks.agency.example/a', '--webhook-secret', SECRET]));

    printed(await cli(['sites', 'set-notifications', '--site', siteId, '--webhook-secret', ROTATED]));
    expect((await served(siteId)).webhook).toEqual({ url: 'https://hooks.agency.example/a', secret: ROTATED });

    printed(await cli(['sites', 'set-notifications', '--site', siteId, '--webhook-url', 'https://hooks.agency.example/b']));
    expect((await served(siteId)).webhook).toEqual({ url: 'https://hooks.agency.example/b', secret: ROTATED });
  });

  it('switches each channel off, the webhook\'s secret with it', async () => {
    const siteId = await createdSite();
    printed(
      await cli(['sites', 'set-notifications', '--site', siteId, '--email', 'desk@smile.example', '--webhook-url', 'https://hooks.agency.example/a', '--webhook-secret', SECRET]),
    );

    const result = await cli(['sites', 'set-notifications', '--site', siteId, '--no-email', '--no-webhook']);

    expect(printed<SiteView>(result).notifications).toEqual({ language: 'en' });
    expect(await served(siteId)).toEqual({ language: 'en', changeRules: { minNoticeHours: 12, moveAllowed: false }, reminderHoursBefore: 24 });
    const row = await withStore((_store, database) =>
      database.db.selectFrom('sites').select(['notify_email', 'webhook_url', 'webhook_secret_sealed']).where('site_id', '=', siteId).executeTakeFirstOrThrow(),
    );
    expect(row).toEqual({ notify_email: null, webhook_url: null, webhook_secret_sealed: null });
  });

  it('sets the change rules and booking page, and gives each back to its default', async () => {
    const siteId = await createdSite();

    const set = await cli([
      'sites', 'set-change-rules', '--site', siteId,
      '--min-notice-hours', '48', '--move', 'on', '--text', 'Cancel free of charge up to two days before.',
      '--booking-page-url', 'https://www.smile.example/book?from=site',
    ]);

    expect(printed<SiteView>(set)).toMatchObject({
      change_rules: { min_notice_hours: 48, move_allowed: true, text: 'Cancel free of charge up to two days before.' },
      booking_page_url: 'https://www.smile.example/book?from=site',
    });
    expect(auditLines(set)).toEqual([
      { audit: 'site.change_rules_set', site_id: siteId, at: expect.any(String), changed: ['min-notice-hours', 'move', 'text', 'booking-page-url'] },
    ]);
    expect(await served(siteId)).toEqual({
      language: 'en',
      changeRules: { minNoticeHours: 48, moveAllowed: true, text: 'Cancel free of charge up to two days before.' },
      bookingPageUrl: 'https://www.smile.example/book?from=site',
      reminderHoursBefore: 24,
    });

    const reset = await cli(['sites', 'set-change-rules', '--site', siteId, '--min-notice-hours', 'default', '--move', 'default', '--no-text', '--no-booking-page-url']);

    const view = printed<SiteView>(reset);
    expect(view.change_rules).toEqual({});
    expect(view).not.toHaveProperty('booking_page_url');
    expect(await served(siteId)).toEqual({ language: 'en', changeRules: { minNoticeHours: 12, moveAllowed: false }, reminderHoursBefore: 24 });
  });

  it('takes a move switched off and a notice of 0 hours as the site\'s own, not as unset', async () => {
    const siteId = await createdSite();

    printed(await cli(['sites', 'set-change-rules', '--site', siteId, '--min-notice-hours', '0', '--move', 'off']));

    expect((await served(siteId)).changeRules).toEqual({ minNoticeHours: 0, moveAllowed: false });
  });

  it('moves the site\'s version with each change, so running BFFs build it again', async () => {
    const siteId = await createdSite();
    const revision = () => withStore(async (store) => (await store.versions()).get(siteId));
    const before = await revision();

    printed(await cli(['sites', 'set-notifications', '--site', siteId, '--language', 'fr']));
    const afterNotifications = await revision();
    printed(await cli(['sites', 'set-change-rules', '--site', siteId, '--move', 'off']));
    const afterRules = await revision();

    expect(new Set([before, afterNotifications, afterRules]).size).toBe(3);
  });

  it('seals webhook secrets again in `sites reencrypt`, so the old key can go', async () => {
    const own = await sitesTestDatabase(engine);
    try {
      const ownCli = (args: string[], env: Record<string, string> = {}) => cli(args, '', { DATABASE_URL: own.url, ...env });
      const file = join(own.file ? join(own.file, '..') : '/tmp', `reencrypt-${randomBytes(4).toString('hex')}.json`);
      writeFileSync(file, JSON.stringify(siteFile()));
      const { site_id: siteId } = printed<{ site_id: string }>(await ownCli(['sites', 'create', '--file', file]));
      printed(await ownCli(['sites', 'set-notifications', '--site', siteId, '--webhook-url', 'https://hooks.agency.example/a', '--webhook-secret', SECRET]));
      const newKey = randomBytes(32).toString('base64');

      printed(await ownCli(['sites', 'reencrypt'], { SITE_SECRETS_KEY: newKey, SITE_SECRETS_KEY_PREVIOUS: key }));

      const database = await openSitesDatabase(own.url);
      try {
        const site = await new SiteStore(database.db, new SiteSecrets(Buffer.from(newKey, 'base64'))).serving(siteId);
        expect(site?.status === 'active' && site.credentials.webhook_secret).toBe(SECRET);
      } finally {
        await database.close();
      }
    } finally {
      await own.remove();
    }
  });

  it('gives the outbox worker a site\'s channels as they are now, named, and undefined once it is deleted', async () => {
    const siteId = await createdSite();
    printed(await cli(['sites', 'set-notifications', '--site', siteId, '--email', 'desk@smile.example', '--language', 'nl']));
    printed(await cli(['sites', 'suspend', '--site', siteId]));

    await withStore(async (store) => {
      const notificationsOf = currentSiteNotifications(bffConfig(), store);
      // Suspended: what it accepted before still reaches the clinic.
      expect(await notificationsOf(siteId)).toEqual({
        email: 'desk@smile.example',
        language: 'nl',
        changeRules: { minNoticeHours: 12, moveAllowed: false },
        reminderHoursBefore: 24,
        clinicName: 'Smile Dental',
      });
      expect(await notificationsOf('default')).toEqual(bffConfig().notifications.defaultSite);
      printed(await cli(['sites', 'delete', '--site', siteId]));
      expect(await notificationsOf(siteId)).toBeUndefined();
    });
  });

  it('never prints a webhook secret it was given, on stdout or stderr', () => {
    for (const { stdout, stderr } of outputs) {
      for (const secret of [SECRET, ROTATED]) {
        expect(stdout).not.toContain(secret);
        expect(stderr).not.toContain(secret);
      }
    }
  });
});

describe('sites set-notifications and set-change-rules, given bad input', { timeout: 90_000 }, () => {
  let testDb: SitesTestDatabase;
  let siteId: string;
  let hooked: string;
  const key = randomBytes(32).toString('base64');
  const cli = (args: string[], env: Record<string, string> = {}) => sitesCli(args, { DATABASE_URL: testDb.url, SITE_SECRETS_KEY: key, ...env });
  const create = async () => {
    const file = join(testDb.file!, '..', `site-${randomBytes(4).toString('hex')}.json`);
    writeFileSync(file, JSON.stringify(siteFile()));
    return printed<{ site_id: string }>(await cli(['sites', 'create', '--file', file])).site_id;
  };

  beforeAll(async () => {
    testDb = await sitesTestDatabase('sqlite');
    siteId = await create();
    hooked = await create();
    printed(await cli(['sites', 'set-notifications', '--site', hooked, '--webhook-url', 'https://hooks.agency.example/a', '--webhook-secret', SECRET]));
  });
  afterAll(() => testDb.remove());

  const notify = (...args: string[]) => ['sites', 'set-notifications', '--site', siteId, ...args];
  const rules = (...args: string[]) => ['sites', 'set-change-rules', '--site', siteId, ...args];

  it.each<[string, () => string[], string | RegExp]>([
    ['an address that is not one', () => notify('--email', 'reception at smile'), 'bff: --email must be one e-mail address, e.g. reception@clinic.example'],
    ['two addresses', () => notify('--email', 'a@smile.example,b@smile.example'), /^bff: --email must be one e-mail address/],
    ['an address and no address', () => notify('--email', 'a@smile.example', '--no-email'), 'bff: --email and --no-email cannot go together'],
    ['a language the mails are not written in', () => notify('--language', 'it'), 'bff: --language must be one of en, de, fr, es, nl, ar'],
    ['a webhook URL that is not http(s)', () => notify('--webhook-url', 'ftp://hooks.agency.example/', '--generate-webhook-secret'), /^bff: --webhook-url must be an http\(s\) URL/],
    ['a webhook URL with a password in it', () => notify('--webhook-url', 'https://user:pw@hooks.agency.example/', '--generate-webhook-secret'), 'bff: --webhook-url must be an http(s) URL without a user name or password'],
    ['a webhook on loopback', () => notify('--webhook-url', 'http://127.0.0.1:9/hook', '--generate-webhook-secret'), 'bff: --webhook-url 127.0.0.1:9 is at 127.0.0.1, which is not public; list 127.0.0.1:9 in OUTBOUND_ALLOWLIST to allow it'],
    ['a webhook on the metadata service', () => notify('--webhook-url', 'http://169.254.169.254/latest', '--generate-webhook-secret'), /^bff: --webhook-url 169\.254\.169\.254 is at 169\.254\.169\.254, which is not public/],
    ['a webhook URL without a secret on a site without a webhook', () => notify('--webhook-url', 'https://hooks.agency.example/a'), 'bff: --webhook-url needs --webhook-secret or --generate-webhook-secret: the site has no webhook yet'],
    ['a webhook secret without a URL on a site without a webhook', () => notify('--webhook-secret', SECRET), 'bff: --webhook-secret needs --webhook-url: the site has no webhook yet'],
    ['a secret given and generated', () => notify('--webhook-url', 'https://hooks.agency.example/a', '--webhook-secret', SECRET, '--generate-webhook-secret'), 'bff: --webhook-secret and --generate-webhook-secret cannot go together'],
    ['a webhook and no webhook', () => notify('--no-webhook', '--webhook-url', 'https://hooks.agency.example/a'), 'bff: --no-webhook and --webhook-url cannot go together'],
    ['nothing to set', () => notify(), /^bff: nothing to set: give --email/],
    ['an unknown site', () => ['sites', 'set-notifications', '--site', 'cbs_aaaaaaaaaaaaaaaaaaaaaaaaaa', '--language', 'de'], 'bff: unknown site: "cbs_aaaaaaaaaaaaaaaaaaaaaaaaaa"'],
    ['a notice of 1000 hours', () => rules('--min-notice-hours', '1000'), 'bff: --min-notice-hours must be from 0 to 720 hours, or default'],
    ['a notice of -1 hours', () => rules('--min-notice-hours=-1'), 'bff: --min-notice-hours must be from 0 to 720 hours, or default'],
    ['a notice of 1.5 hours', () => rules('--min-notice-hours', '1.5'), 'bff: --min-notice-hours must be a whole number of hours'],
    ['a notice that is no number', () => rules('--min-notice-hours', 'soon'), 'bff: --min-notice-hours must be a whole number of hours'],
    ['a move that is neither on nor off', () => rules('--move', 'yes'), 'bff: --move must be on, off or default'],
    ['an empty text', () => rules('--text', '  '), 'bff: --text must not be empty (--no-text removes it)'],
    ['a text of 301 characters', () => rules('--text', 'x'.repeat(301)), 'bff: --text must be at most 300 characters'],
    ['a text with a bidi override', () => rules('--text', 'Call us \u202Eon 0123'), 'bff: --text must be plain text, without control characters'],
    ['a text and no text', () => rules('--text', 'Hi', '--no-text'), 'bff: --text and --no-text cannot go together'],
    ['a booking page on another origin', () => rules('--booking-page-url', 'https://other.example/book'), "bff: --booking-page-url https://other.example is not one of the site's allowed origins (sites set-origins)"],
    ['a booking page over http on an https origin', () => rules('--booking-page-url', 'http://www.smile.example/book'), "bff: --booking-page-url http://www.smile.example is not one of the site's allowed origins (sites set-origins)"],
    ['a booking page that is not http(s)', () => rules('--booking-page-url', 'javascript:alert(1)'), 'bff: --booking-page-url must be an http(s) URL of the page the widget is on'],
    ['nothing to set', () => rules(), /^bff: nothing to set: give --min-notice-hours/],
    ['a notifications flag given to set-change-rules', () => rules('--email', 'a@smile.example'), /^bff: Unknown option '--email'/],
    ['a change rule given to another command', () => ['sites', 'show', '--site', siteId, '--move', 'off'], /^bff: Unknown option '--move'/],
  ])('refuses %s with one clear line and exit code 2, and changes nothing', async (_case, args, message) => {
    const before = printed<SiteView>(await cli(['sites', 'show', '--site', siteId]));

    const line = refusal(await cli(args()));

    if (typeof message === 'string') expect(line).toBe(message);
    else expect(line).toMatch(message);
    expect(printed<SiteView>(await cli(['sites', 'show', '--site', siteId]))).toEqual(before);
  });

  it.each([
    ['too short', 'whsec_c2hvcnQ='],
    ['without its prefix', Buffer.alloc(32, 7).toString('base64')],
    ['not base64', 'whsec_not*base64*at*all*not*base64*at*all*xx'],
  ])('refuses a webhook secret %s without repeating it', async (_case, secret) => {
    const line = refusal(await cli(notify('--webhook-url', 'https://hooks.agency.example/a', '--webhook-secret', secret)));

    expect(line).toBe('bff: --webhook-secret must be whsec_ then base64 of 24 to 64 random bytes (or --generate-webhook-secret)');
    expect(line).not.toContain(secret);
  });

  it('rotates a secret on a site with a webhook without asking for its URL again', async () => {
    printed(await cli(['sites', 'set-notifications', '--site', hooked, '--webhook-secret', ROTATED]));
  });

  it('takes a webhook on an internal host that OUTBOUND_ALLOWLIST names', async () => {
    const site = await create();

    const result = await cli(['sites', 'set-notifications', '--site', site, '--webhook-url', 'http://127.0.0.1:9/hook', '--generate-webhook-secret'], { OUTBOUND_ALLOWLIST: '127.0.0.1:9' });

    expect(printed<SiteView>(result).notifications.webhook_url).toBe('http://127.0.0.1:9/hook');
  });
});
