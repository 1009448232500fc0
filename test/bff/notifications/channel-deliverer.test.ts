import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadBffConfig } from '../../../bff/config.js';
import { channelDeliverer, type NotifiedSite } from '../../../bff/notifications/channel-deliverer.js';
import { MailSenders } from '../../../bff/notifications/mail-sender.js';
import { WebhookSender } from '../../../bff/notifications/webhook-sender.js';
import { parseOutboundAllowlist } from '../../../bff/outbound/outbound-allowlist.js';
import { OutboundPolicy } from '../../../bff/outbound/outbound-policy.js';
import { SiteSecrets } from '../../../bff/sites/site-secrets.js';
import { currentSiteNotifications } from '../../../bff/sites/site-settings.js';
import { SiteStore } from '../../../bff/sites/site.store.js';
import { openSitesDatabase } from '../../../bff/sites/sites-database.js';
import { printed, sitesCli } from '../sites/support/sites-cli.js';
import { siteFile } from '../sites/support/site-file.js';
import { sitesTestDatabase } from '../sites/support/sites-test-database.js';
import { eventOf, messageOf } from './support/events.js';
import { startRelay } from './support/smtp-relay.js';
import { startReceiver } from './support/webhook-receiver.js';

const FROM = 'bookings@agency.example';
const SECRET = `whsec_${Buffer.alloc(32, 0x21).toString('base64')}`;
const RULES = { minNoticeHours: 24, moveAllowed: true };

const relay = await startRelay({ noStartTls: true });
const receiver = await startReceiver(SECRET);
const mail = new MailSenders();
afterAll(() => mail.close());
/** The relay every site of these tests sends through, as the BFF's SMTP_URL and MAIL_FROM. */
const mailRelay = { url: relay.url, from: FROM };
const webhook = new WebhookSender({ outbound: new OutboundPolicy({ allowlist: parseOutboundAllowlist('127.0.0.1') }) });

/** A deliverer over sites held in a map a test changes between deliveries. */
function delivererOver(sites: Map<string, NotifiedSite>) {
  return channelDeliverer({ notificationsOf: async (siteId) => sites.get(siteId), webhook, mail });
}
const siteEvent = (siteId: string) => eventOf('booking.created', { site_id: siteId });

describe('the outbox deliverer', () => {
  it('sends an e-mail message to the site\'s address, in its language, naming the clinic', async () => {
    const sites = new Map([['cbs_one', { email: 'desk@one.example', language: 'de', changeRules: RULES, clinicName: 'Praxis Eins', mailRelay } satisfies NotifiedSite]]);
    const before = relay.received.length;

    expect(await delivererOver(sites).deliver(messageOf(siteEvent('cbs_one'), 'email'))).toEqual({ delivered: true });

    const received = relay.received[before]!;
    expect(received.envelope.to).toEqual(['desk@one.example']);
    expect(received.mail.subject).toMatch(/^Neue Buchung: /);
    expect(received.mail.text).toContain('Praxis Eins');
  });

  it('sends a webhook message to the site\'s webhook, signed with its secret', async () => {
    const sites = new Map([['cbs_two', { language: 'en', webhook: { url: `${receiver.url}/two`, secret: SECRET }, changeRules: RULES } satisfies NotifiedSite]]);
    const message = messageOf(siteEvent('cbs_two'), 'webhook');

    expect(await delivererOver(sites).deliver(message)).toEqual({ delivered: true });

    const hook = receiver.received.find((received) => received.headers['webhook-id'] === message.id);
    expect(hook?.path).toBe('/two');
    expect(hook?.verified).toMatchObject({ type: 'booking.created', data: { site_id: 'cbs_two' } });
  });

  it('reads the site\'s channels at each delivery: a try after a change goes where the site says now', async () => {
    const sites = new Map<string, NotifiedSite>([['cbs_three', { email: 'old@three.example', language: 'en', changeRules: RULES, mailRelay }]]);
    const deliverer = delivererOver(sites);
    const message = messageOf(siteEvent('cbs_three'), 'email');
    const before = relay.received.length;

    await deliverer.deliver(message);
    sites.set('cbs_three', { email: 'new@three.example', language: 'en', changeRules: RULES, mailRelay });
    await deliverer.deliver({ ...message, attempts: 2 });

    expect(relay.received.slice(before).map((received) => received.envelope.to)).toEqual([['old@three.example'], ['new@three.example']]);
  });

  it.each<[string, NotifiedSite | undefined, 'email' | 'webhook', string]>([
    ['an e-mail to a site whose e-mail is off', { language: 'en', changeRules: RULES }, 'email', 'email off'],
    ['a webhook to a site whose webhook is off', { email: 'desk@four.example', language: 'en', changeRules: RULES }, 'webhook', 'webhook off'],
    ['a message of a site that is gone', undefined, 'email', 'site gone'],
  ])('gives up at once on %s, and sends nothing', async (_case, site, channel, error) => {
    const sites = new Map(site ? [['cbs_four', site]] : []);
    const [mails, hooks] = [relay.received.length, receiver.received.length];

    expect(await delivererOver(sites).deliver(messageOf(siteEvent('cbs_four'), channel))).toEqual({ delivered: false, permanent: true, error });

    expect([relay.received.length, receiver.received.length]).toEqual([mails, hooks]);
  });

  it('gives up at once on an e-mail of a site that has no relay (neither its own nor SMTP_URL)', async () => {
    const sites = new Map([['cbs_five', { email: 'desk@five.example', language: 'en', changeRules: RULES } satisfies NotifiedSite]]);

    expect(await delivererOver(sites).deliver(messageOf(siteEvent('cbs_five'), 'email'))).toEqual({
      delivered: false,
      permanent: true,
      error: 'no mail relay',
    });
  });

  it('takes a site whose settings cannot be read now (its database, its sealed secret) as a failed try', async () => {
    const deliverer = channelDeliverer({
      notificationsOf: async () => {
        throw new Error('the stored webhook secret of site cbs_six does not open');
      },
      mail,
      webhook,
    });

    expect(await deliverer.deliver(messageOf(siteEvent('cbs_six'), 'webhook'))).toEqual({ delivered: false, permanent: false, error: 'site unreadable' });
  });

  it('delivers to what `sites set-notifications` set on a database site, and stops once it is switched off', async () => {
    const testDb = await sitesTestDatabase('sqlite');
    const key = randomBytes(32).toString('base64');
    const env = { DATABASE_URL: testDb.url, SITE_SECRETS_KEY: key, OUTBOUND_ALLOWLIST: '127.0.0.1' };
    const database = await openSitesDatabase(testDb.url);
    try {
      const file = join(testDb.file!, '..', 'site.json');
      writeFileSync(file, JSON.stringify(siteFile()));
      const { site_id: siteId } = printed<{ site_id: string }>(await sitesCli(['sites', 'create', '--file', file], env));
      printed(
        await sitesCli(['sites', 'set-notifications', '--site', siteId, '--email', 'desk@smile.example', '--language', 'fr', '--webhook-url', `${receiver.url}/smile`, '--webhook-secret', SECRET], env),
      );
      const config = loadBffConfig(
        { UPSTREAM_URL: 'http://127.0.0.1:1/api/v1', APP_KEY: 'k', APP_SECRET_KEY: 's', BOOKING_REF_SECRET: 'r'.repeat(40), SMTP_URL: relay.url, MAIL_FROM: FROM },
        '/nonexistent/.env',
      );
      const deliverer = channelDeliverer({
        notificationsOf: currentSiteNotifications(config, new SiteStore(database.db, new SiteSecrets(Buffer.from(key, 'base64')))),
        mail,
        webhook,
      });
      const before = relay.received.length;

      expect(await deliverer.deliver(messageOf(siteEvent(siteId), 'email'))).toEqual({ delivered: true });
      expect(await deliverer.deliver(messageOf(siteEvent(siteId), 'webhook'))).toEqual({ delivered: true });
      expect(relay.received[before]?.mail.subject).toMatch(/^Nouvelle réservation/);
      expect(relay.received[before]?.mail.text).toContain('Smile Dental');
      expect(receiver.received.at(-1)).toMatchObject({ path: '/smile', verified: { data: { site_id: siteId } } });

      printed(await sitesCli(['sites', 'set-notifications', '--site', siteId, '--no-email', '--no-webhook'], env));

      expect(await deliverer.deliver(messageOf(siteEvent(siteId), 'email'))).toEqual({ delivered: false, permanent: true, error: 'email off' });
      expect(await deliverer.deliver(messageOf(siteEvent(siteId), 'webhook'))).toEqual({ delivered: false, permanent: true, error: 'webhook off' });
    } finally {
      await database.close();
      await testDb.remove();
    }
  });
});
