import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadBffConfig } from '../../../bff/config.js';
import { channelDeliverer } from '../../../bff/notifications/channel-deliverer.js';
import { MailSenders } from '../../../bff/notifications/mail-sender.js';
import { WebhookSender } from '../../../bff/notifications/webhook-sender.js';
import { OutboundPolicy } from '../../../bff/outbound/outbound-policy.js';
import { SiteSecretError, SiteSecrets } from '../../../bff/sites/site-secrets.js';
import { currentSiteNotifications, siteSettingsOf } from '../../../bff/sites/site-settings.js';
import { SiteStore } from '../../../bff/sites/site.store.js';
import type { SiteView } from '../../../bff/sites/site.js';
import { openSitesDatabase } from '../../../bff/sites/sites-database.js';
import { checkDkim } from '../notifications/support/dkim-verify.js';
import { eventOf, messageOf } from '../notifications/support/events.js';
import { startRelay } from '../notifications/support/smtp-relay.js';
import { auditLines, printed, refusal, sitesCli, type CliResult } from './support/sites-cli.js';
import { siteFile } from './support/site-file.js';
import { ENGINES, sitesTestDatabase, type SitesTestDatabase } from './support/sites-test-database.js';

/** Easy to search for in output and bytes. */
const PASSWORD = 'relay-pass-5e8a1c';
const SITE_RELAY = `smtp://smile-bookings:${PASSWORD}@mail.smile-dental.example:587`;
const bffKey = generateKeyPairSync('rsa', { modulusLength: 2048 });
const siteKey = generateKeyPairSync('rsa', { modulusLength: 2048 });
const pem = (key: typeof siteKey) => key.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
/** A line from the middle of the site's key: what must never be printed or stored in clear. */
const SITE_KEY_LINE = pem(siteKey).split('\n')[5]!;

/** The BFF's relay, sender and DKIM key (SMTP_URL, MAIL_FROM, DKIM_*), and its reminder hours. */
const bffEnv = (changes: Record<string, string> = {}) => ({
  UPSTREAM_URL: 'http://127.0.0.1:1/api/v1',
  APP_KEY: 'ck_default',
  APP_SECRET_KEY: 'default-secret',
  BOOKING_REF_SECRET: 'r'.repeat(40),
  SMTP_URL: 'smtp://relay.agency.example:587',
  MAIL_FROM: 'bookings@agency.example',
  DKIM_DOMAIN: 'agency.example',
  DKIM_SELECTOR: 'agency1',
  DKIM_PRIVATE_KEY: pem(bffKey),
  REMINDER_HOURS_BEFORE: '36',
  ...changes,
});
const bffConfig = (changes: Record<string, string> = {}) => loadBffConfig(bffEnv(changes), '/nonexistent/.env');
/** The BFF without a relay of its own (no SMTP_URL, no MAIL_FROM). */
const bffWithoutRelay = () =>
  loadBffConfig(Object.fromEntries(Object.entries(bffEnv()).filter(([name]) => name !== 'SMTP_URL' && name !== 'MAIL_FROM')), '/nonexistent/.env');
const BFF_DKIM = { domainName: 'agency.example', keySelector: 'agency1', privateKey: pem(bffKey) };
const SITE_DKIM = { domainName: 'smile-dental.example', keySelector: 'smile2026', privateKey: pem(siteKey) };

describe.each(ENGINES)('sites set-patient-mail, on %s', { timeout: 90_000 }, (engine) => {
  let testDb: SitesTestDatabase;
  let folder: string;
  let keyFile: string;
  const key = randomBytes(32).toString('base64');
  const outputs: CliResult[] = [];
  const cli = async (args: string[], input = '', env: Record<string, string> = {}) => {
    const result = await sitesCli(args, { DATABASE_URL: testDb.url, SITE_SECRETS_KEY: key, ...env }, input);
    outputs.push(result);
    return result;
  };
  const withStore = async <T>(use: (store: SiteStore, db: Awaited<ReturnType<typeof openSitesDatabase>>) => Promise<T>, secretsKey = key, url = testDb.url): Promise<T> => {
    const database = await openSitesDatabase(url);
    try {
      return await use(new SiteStore(database.db, new SiteSecrets(Buffer.from(secretsKey, 'base64'))), database);
    } finally {
      await database.close();
    }
  };
  const createdSite = async (run: (args: string[]) => Promise<CliResult> = cli): Promise<string> => {
    const file = join(folder, `site-${randomBytes(4).toString('hex')}.json`);
    writeFileSync(file, JSON.stringify(siteFile()));
    return printed<{ site_id: string }>(await run(['sites', 'create', '--file', file])).site_id;
  };
  /** The site's notifications as a running BFF serves it, under `config`. */
  const served = (siteId: string, config = bffConfig()) =>
    withStore(async (store) => {
      const site = await store.serving(siteId);
      if (site?.status !== 'active') throw new Error('not served');
      return siteSettingsOf(site.site, site.credentials, config, site.revision).notifications;
    });
  const setMail = (siteId: string, ...flags: string[]) => cli(['sites', 'set-patient-mail', '--site', siteId, ...flags]);

  beforeAll(async () => {
    testDb = await sitesTestDatabase(engine);
    folder = mkdtempSync(join(tmpdir(), 'bff-patient-mail-cli-'));
    keyFile = join(folder, 'dkim.pem');
    writeFileSync(keyFile, siteKey.privateKey.export({ type: 'pkcs1', format: 'pem' }));
  });
  afterAll(async () => {
    // Whatever any command printed, never the relay's password or the site's key.
    const text = outputs.map((result) => result.stdout + result.stderr).join('\n');
    expect(text).not.toContain(PASSWORD);
    expect(text).not.toContain(SITE_KEY_LINE);
    rmSync(folder, { recursive: true, force: true });
    await testDb.remove();
  });

  it('sets a sender, a relay from standard input, a DKIM key and reminder hours; shows them without a secret; serves the site with them', async () => {
    const siteId = await createdSite();

    const result = await cli(
      ['sites', 'set-patient-mail', '--site', siteId, '--from', 'bookings@smile-dental.example', '--smtp-url', '-',
        '--dkim-domain', 'Smile-Dental.example', '--dkim-selector', 'smile2026', '--dkim-key-file', keyFile, '--reminder-hours', '48'],
      `${SITE_RELAY}\n`,
    );

    const mail = { from: 'bookings@smile-dental.example', own_relay: true, dkim: { domain: 'smile-dental.example', selector: 'smile2026' }, reminder_hours_before: 48 };
    expect(printed<SiteView>(result).mail).toEqual(mail);
    expect(auditLines(result)).toEqual([
      { audit: 'site.patient_mail_set', site_id: siteId, at: expect.any(String), changed: ['from', 'smtp-url', 'dkim-domain', 'dkim-selector', 'dkim-key-file', 'reminder-hours'] },
    ]);
    expect(printed<SiteView>(await cli(['sites', 'show', '--site', siteId])).mail).toEqual(mail);
    expect(printed<SiteView[]>(await cli(['sites', 'list'])).find((site) => site.site_id === siteId)?.mail).toEqual(mail);
    expect(await served(siteId)).toMatchObject({ mailRelay: { url: SITE_RELAY, from: 'bookings@smile-dental.example', dkim: SITE_DKIM }, reminderHoursBefore: 48 });
  });

  it('falls back on the BFF\'s relay, sender, key and hours, part by part', async () => {
    const [nothing, senderOnly, relayOnly, noReminders] = [await createdSite(), await createdSite(), await createdSite(), await createdSite()];
    printed(await setMail(senderOnly, '--from', 'bookings@smile-dental.example'));
    printed(await setMail(relayOnly, '--smtp-url', SITE_RELAY));
    printed(await setMail(noReminders, '--reminder-hours', '0'));

    expect(await served(nothing)).toMatchObject({ mailRelay: { url: 'smtp://relay.agency.example:587', from: 'bookings@agency.example', dkim: BFF_DKIM }, reminderHoursBefore: 36 });
    // Its own sender through the BFF's relay, unsigned: the BFF's key never signs a clinic's own domain.
    expect((await served(senderOnly)).mailRelay).toEqual({ url: 'smtp://relay.agency.example:587', from: 'bookings@smile-dental.example' });
    expect((await served(relayOnly)).mailRelay).toEqual({ url: SITE_RELAY, from: 'bookings@agency.example', dkim: BFF_DKIM });
    expect((await served(noReminders)).reminderHoursBefore).toBe(0);
  });

  it('sends no e-mail for a site without a relay and a sender, its own or the BFF\'s', async () => {
    const [senderOnly, both] = [await createdSite(), await createdSite()];
    printed(await setMail(senderOnly, '--from', 'bookings@smile-dental.example'));
    printed(await setMail(both, '--from', 'bookings@smile-dental.example', '--smtp-url', SITE_RELAY));
    const noBffRelay = bffWithoutRelay();

    expect(await served(senderOnly, noBffRelay)).not.toHaveProperty('mailRelay');
    expect((await served(both, noBffRelay)).mailRelay).toEqual({ url: SITE_RELAY, from: 'bookings@smile-dental.example' });
  });

  it('gives the relay, the key and the hours back to the BFF\'s', async () => {
    const siteId = await createdSite();
    printed(await setMail(siteId, '--from', 'bookings@smile-dental.example', '--smtp-url', SITE_RELAY, '--reminder-hours', '2',
      '--dkim-domain', 'smile-dental.example', '--dkim-selector', 'smile2026', '--dkim-key-file', keyFile));

    const result = await setMail(siteId, '--clear-relay', '--clear-dkim', '--reminder-hours', 'default');

    expect(printed<SiteView>(result).mail).toEqual({ own_relay: false });
    expect(await served(siteId)).toMatchObject({ mailRelay: { url: 'smtp://relay.agency.example:587', from: 'bookings@agency.example', dkim: BFF_DKIM }, reminderHoursBefore: 36 });
    const row = await withStore((_store, database) =>
      database.db
        .selectFrom('sites')
        .select(['mail_from', 'smtp_url_sealed', 'dkim_domain', 'dkim_selector', 'dkim_private_key_sealed', 'reminder_hours_before'])
        .where('site_id', '=', siteId)
        .executeTakeFirstOrThrow(),
    );
    expect(Object.values(row).every((value) => value === null)).toBe(true);
  });

  it('seals the relay URL and the key in their columns, bound to the site and to what each is', async () => {
    const siteId = await createdSite();
    printed(await setMail(siteId, '--smtp-url', SITE_RELAY, '--dkim-domain', 'smile-dental.example', '--dkim-selector', 'smile2026', '--dkim-key-file', keyFile));

    const row = await withStore((_store, database) =>
      database.db.selectFrom('sites').select(['smtp_url_sealed', 'dkim_private_key_sealed']).where('site_id', '=', siteId).executeTakeFirstOrThrow(),
    );

    expect(row.smtp_url_sealed).not.toContain(PASSWORD);
    expect(row.dkim_private_key_sealed).not.toContain(SITE_KEY_LINE);
    const secrets = new SiteSecrets(Buffer.from(key, 'base64'));
    expect(secrets.open(siteId, row.smtp_url_sealed!, 'smtp-url')).toBe(SITE_RELAY);
    expect(secrets.open(siteId, row.dkim_private_key_sealed!, 'dkim-key')).toBe(pem(siteKey));
    for (const purpose of ['app', 'webhook', 'dkim-key'] as const) expect(() => secrets.open(siteId, row.smtp_url_sealed!, purpose)).toThrow(SiteSecretError);
    expect(() => secrets.open('cbs_aaaaaaaaaaaaaaaaaaaaaaaaaa', row.smtp_url_sealed!, 'smtp-url')).toThrow(SiteSecretError);
  });

  it.runIf(engine === 'sqlite')('leaves neither the relay\'s password nor the key in the database file or its WAL', async () => {
    const siteId = await createdSite();
    printed(await setMail(siteId, '--smtp-url', SITE_RELAY, '--dkim-domain', 'smile-dental.example', '--dkim-selector', 'smile2026', '--dkim-key-file', keyFile));

    const bytes = Buffer.concat([testDb.file!, `${testDb.file!}-wal`].filter(existsSync).map((path) => readFileSync(path)));

    expect(bytes.includes(PASSWORD)).toBe(false);
    expect(bytes.includes(SITE_KEY_LINE)).toBe(false);
  });

  it('seals them again in `sites reencrypt`, so the old key can go', async () => {
    const own = await sitesTestDatabase(engine);
    try {
      const ownCli = (args: string[], env: Record<string, string> = {}) => cli(args, '', { DATABASE_URL: own.url, ...env });
      const siteId = await createdSite(ownCli);
      printed(await ownCli(['sites', 'set-patient-mail', '--site', siteId, '--smtp-url', SITE_RELAY,
        '--dkim-domain', 'smile-dental.example', '--dkim-selector', 'smile2026', '--dkim-key-file', keyFile]));
      const newKey = randomBytes(32).toString('base64');

      printed(await ownCli(['sites', 'reencrypt'], { SITE_SECRETS_KEY: newKey, SITE_SECRETS_KEY_PREVIOUS: key }));

      const credentials = await withStore(async (store) => {
        const site = await store.serving(siteId);
        return site?.status === 'active' ? site.credentials : undefined;
      }, newKey, own.url);
      expect(credentials).toMatchObject({ smtp_url: SITE_RELAY, dkim_private_key: pem(siteKey) });
    } finally {
      await own.remove();
    }
  });

  it('takes a relay on a private address only when OUTBOUND_ALLOWLIST names it', async () => {
    const siteId = await createdSite();

    expect(refusal(await setMail(siteId, '--smtp-url', `smtp://bff:${PASSWORD}@10.20.0.5:2525`))).toBe(
      'bff: --smtp-url 10.20.0.5:2525 is at 10.20.0.5, which is not public; list 10.20.0.5:2525 in OUTBOUND_ALLOWLIST to allow it',
    );
    printed(await cli(['sites', 'set-patient-mail', '--site', siteId, '--smtp-url', `smtp://bff:${PASSWORD}@10.20.0.5:2525`], '', { OUTBOUND_ALLOWLIST: '10.20.0.0/16' }));
  });

  it.each<[string, string[], RegExp]>([
    ['a sender that is no address', ['--from', 'bookings at smile'], /^bff: --from must be one e-mail address/],
    ['a relay of another scheme', ['--smtp-url', `https://bff:${PASSWORD}@mail.smile-dental.example`], /^bff: --smtp-url must be smtp:\/\/host\[:port\] or smtps:\/\/host\[:port\]/],
    ['a relay URL with a path', ['--smtp-url', `smtp://bff:${PASSWORD}@mail.smile-dental.example/inbox`], /^bff: --smtp-url must be smtp:\/\//],
    ['DKIM in part', ['--dkim-domain', 'smile-dental.example', '--dkim-selector', 'smile2026'], /^bff: --dkim-domain, --dkim-selector and --dkim-key-file go together$/],
    ['a DKIM domain that is none', ['--dkim-domain', 'smile', '--dkim-selector', 's1', '--dkim-key-file', '/nonexistent/k.pem'], /^bff: --dkim-domain must be a domain name/],
    ['a key file that is not there', ['--dkim-domain', 'smile-dental.example', '--dkim-selector', 's1', '--dkim-key-file', '/nonexistent/k.pem'], /^bff: cannot read --dkim-key-file \/nonexistent\/k\.pem: ENOENT$/],
    ['reminder hours past 30 days', ['--reminder-hours', '721'], /^bff: --reminder-hours must be a whole number of hours from 0 \(no reminders\) to 720, or default$/],
    ['negative reminder hours', ['--reminder-hours=-1'], /^bff: --reminder-hours must be a whole number/],
    ['empty reminder hours', ['--reminder-hours', ''], /^bff: --reminder-hours must be a whole number/],
    ['half an hour', ['--reminder-hours', '1.5'], /^bff: --reminder-hours must be a whole number/],
    ['a relay given and cleared', ['--from', 'a@smile-dental.example', '--clear-relay'], /^bff: --clear-relay and --from cannot go together$/],
    ['a key given and cleared', ['--clear-dkim', '--dkim-domain', 'smile-dental.example'], /^bff: --clear-dkim and --dkim-domain cannot go together$/],
    ['nothing to set', [], /^bff: nothing to set: give --from, --smtp-url/],
    ['a flag of another command', ['--email', 'desk@smile.example'], /^bff: Unknown option '--email'/],
  ])('refuses %s with one line and exit code 2, never repeating a secret, and changes nothing', async (_case, flags, message) => {
    const siteId = await createdSite();
    const before = printed<SiteView>(await cli(['sites', 'show', '--site', siteId]));

    expect(refusal(await setMail(siteId, ...flags))).toMatch(message);

    expect(printed<SiteView>(await cli(['sites', 'show', '--site', siteId]))).toEqual(before);
  });

  it('refuses a key file that holds no RSA private key, never quoting it', async () => {
    const siteId = await createdSite();
    const ecFile = join(folder, 'ec.pem');
    const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    writeFileSync(ecFile, ec);

    const line = refusal(await setMail(siteId, '--dkim-domain', 'smile-dental.example', '--dkim-selector', 's1', '--dkim-key-file', ecFile));

    expect(line).toBe('bff: --dkim-key-file must hold an unencrypted RSA private key in PEM of 1024 bits or more (openssl genrsa 2048)');
    expect(line).not.toContain(ec.split('\n')[1]!);
  });

  it('refuses an unknown site', async () => {
    expect(refusal(await setMail('cbs_aaaaaaaaaaaaaaaaaaaaaaaaaa', '--reminder-hours', '12'))).toBe('bff: unknown site: "cbs_aaaaaaaaaaaaaaaaaaaaaaaaaa"');
  });

  describe('delivery', () => {
    it('sends a site\'s clinic e-mail through its own relay, as its own sender, signed with its key; another site\'s through the BFF\'s', async () => {
      const [own, bff] = [await startRelay({ noStartTls: true }), await startRelay({ noStartTls: true })];
      const [smile, plain] = [await createdSite(), await createdSite()];
      // A relay on loopback, as the outbound rule takes one: named in OUTBOUND_ALLOWLIST.
      printed(await cli(['sites', 'set-patient-mail', '--site', smile, '--from', 'bookings@smile-dental.example', '--smtp-url', own.url,
        '--dkim-domain', 'smile-dental.example', '--dkim-selector', 'smile2026', '--dkim-key-file', keyFile], '', { OUTBOUND_ALLOWLIST: '127.0.0.1' }));
      printed(await cli(['sites', 'set-notifications', '--site', smile, '--email', 'desk@smile-dental.example']));
      printed(await cli(['sites', 'set-notifications', '--site', plain, '--email', 'desk@plain-dental.example']));
      const senders = new MailSenders();
      try {
        await withStore(async (store) => {
          const deliverer = channelDeliverer({
            notificationsOf: currentSiteNotifications(bffConfig({ SMTP_URL: bff.url }), store),
            mail: senders,
            webhook: new WebhookSender({ outbound: new OutboundPolicy() }),
          });

          expect(await deliverer.deliver(messageOf(eventOf('booking.created', { site_id: smile }), 'email'))).toEqual({ delivered: true });
          expect(await deliverer.deliver(messageOf(eventOf('booking.created', { site_id: plain }), 'email'))).toEqual({ delivered: true });
        });

        expect(own.received.map((received) => received.envelope)).toEqual([{ from: 'bookings@smile-dental.example', to: ['desk@smile-dental.example'] }]);
        expect(checkDkim(own.received[0]!.raw, siteKey.publicKey)).toMatchObject({ tags: { d: 'smile-dental.example', s: 'smile2026' }, bodyHashHolds: true, signatureHolds: true });
        expect(bff.received.map((received) => received.envelope)).toEqual([{ from: 'bookings@agency.example', to: ['desk@plain-dental.example'] }]);
        expect(checkDkim(bff.received[0]!.raw, bffKey.publicKey)).toMatchObject({ tags: { d: 'agency.example', s: 'agency1' }, signatureHolds: true });
      } finally {
        senders.close();
      }
    });
  });
});
