import { describe, expect, it } from 'vitest';
import { isLoopbackHost, MAIL_TIMEOUTS, mailTransportOptions } from '../../../bff/notifications/mail-transport.js';
import { clinicMailOf } from '../../../bff/notifications/channel-deliverer.js';
import { MAIL_TRY_DEADLINE_MS, MailSenders } from '../../../bff/notifications/mail-sender.js';
import type { MailTransportTestOptions } from '../../../bff/notifications/mail-transport.js';
import type { MailRelay } from '../../../bff/notifications/notification-settings.js';
import { freePort } from '../../support/free-port.js';
import { eventOf, messageOf } from './support/events.js';
import { nonLoopbackAddress, startRelay } from './support/smtp-relay.js';

const FROM = 'bookings@agency.example';
const TO = 'reception@smile.example';
/** smtp-server's built-in certificate is self-signed: only a test may say to take it. */
const TRUST_TEST_CERTIFICATE = { tls: { rejectUnauthorized: false } };
const message = () => messageOf(eventOf('booking.created'), 'email');

/** Sends one clinic e-mail to TO through `relay`, on senders of its own (closed after). */
async function sendThrough(relay: MailRelay, test: MailTransportTestOptions = {}) {
  const senders = new MailSenders({ test });
  try {
    const sent = message();
    return await senders.send(relay, sent, clinicMailOf(sent, { address: TO, language: 'en' }));
  } finally {
    senders.close();
  }
}

describe('the relay transport options (SMTP_URL)', () => {
  it.each([
    ['smtp://127.0.0.1:2525', true],
    ['smtp://127.9.8.7', true],
    ['smtp://localhost:25', true],
    ['smtp://LOCALHOST.:25', true],
    ['smtp://[::1]:25', true],
    ['smtp://[::ffff:127.0.0.1]:25', true],
    ['smtp://192.0.2.10:587', false],
    ['smtp://mail.agency.example:587', false],
    ['smtp://localhost.agency.example', false],
    ['smtp://[::2]:25', false],
    // A spelling of loopback that only the resolver would read as such is taken as remote: more is asked of it, never less.
    ['smtp://127.1:25', false],
  ])('reads %s as loopback: %s', (url, loopback) => {
    expect(isLoopbackHost(new URL(url).hostname)).toBe(loopback);
    expect(mailTransportOptions(url)).toMatchObject({ secure: false, requireTLS: !loopback });
  });

  it('takes smtps:// as TLS from the first byte, on port 465 unless told', () => {
    expect(mailTransportOptions('smtps://mail.agency.example')).toMatchObject({ host: 'mail.agency.example', port: 465, secure: true, requireTLS: false });
    expect(mailTransportOptions('smtp://mail.agency.example')).toMatchObject({ port: 587, secure: false, requireTLS: true });
  });

  it('reads the user and password from the URL, decoded', () => {
    expect(mailTransportOptions('smtp://bff%40agency:p%40ss%3Aw0rd@mail.agency.example:587').auth).toEqual({ user: 'bff@agency', pass: 'p@ss:w0rd' });
    expect(mailTransportOptions('smtp://mail.agency.example:587')).not.toHaveProperty('auth');
  });

  it('bounds every wait, and a whole try, at 30 s at most', () => {
    const options = mailTransportOptions('smtp://mail.agency.example:587');

    expect(options).toMatchObject({
      connectionTimeout: MAIL_TIMEOUTS.connectionMs,
      greetingTimeout: MAIL_TIMEOUTS.greetingMs,
      socketTimeout: MAIL_TIMEOUTS.socketMs,
      dnsTimeout: MAIL_TIMEOUTS.dnsMs,
    });
    for (const wait of [...Object.values(MAIL_TIMEOUTS), MAIL_TRY_DEADLINE_MS]) expect(wait).toBeLessThanOrEqual(30_000);
  });

  it('takes no option from the URL\'s query: none can switch off certificate checks or STARTTLS', () => {
    const options = mailTransportOptions('smtp://mail.agency.example:587?tls.rejectUnauthorized=false&requireTLS=false&ignoreTLS=true&secure=true');

    expect(options).toMatchObject({ secure: false, requireTLS: true });
    expect(options).not.toHaveProperty('tls');
    expect(options).not.toHaveProperty('ignoreTLS');
  });
});

describe('sending through a real relay', () => {
  it('authenticates with the user and password in SMTP_URL, over the STARTTLS the relay offers', async () => {
    const relay = await startRelay({ auth: { user: 'clinic-bff', pass: 'p@ss word' } });

    expect(await sendThrough({ url: `smtp://clinic-bff:p%40ss%20word@127.0.0.1:${relay.port}`, from: FROM }, TRUST_TEST_CERTIFICATE)).toEqual({ delivered: true });

    expect(relay.received).toHaveLength(1);
    expect(relay.received[0]).toMatchObject({ user: 'clinic-bff', secure: true });
  });

  it('reports a wrong password as `smtp auth 535`, a failed try', async () => {
    const relay = await startRelay({ auth: { user: 'clinic-bff', pass: 'right' } });

    expect(await sendThrough({ url: `smtp://clinic-bff:wrong@127.0.0.1:${relay.port}`, from: FROM }, TRUST_TEST_CERTIFICATE)).toEqual({ delivered: false, permanent: false, error: 'smtp auth 535' });
    expect(relay.received).toHaveLength(0);
  });

  it('upgrades to TLS when a loopback relay offers STARTTLS', async () => {
    const relay = await startRelay();

    expect(await sendThrough({ url: relay.url, from: FROM }, TRUST_TEST_CERTIFICATE)).toEqual({ delivered: true });
    expect(relay.received[0]?.secure).toBe(true);
  });

  it('checks the relay\'s certificate: a self-signed one fails the try, and nothing is sent', async () => {
    const relay = await startRelay();

    // smtp-server's built-in certificate is self-signed, and expired too: either is refused.
    expect(await sendThrough({ url: relay.url, from: FROM })).toEqual({ delivered: false, permanent: false, error: expect.stringMatching(/^tls (CERT_HAS_EXPIRED|DEPTH_ZERO_SELF_SIGNED_CERT)$/) });
    expect(relay.received).toHaveLength(0);
  });

  it('speaks TLS from the first byte to smtps://', async () => {
    const relay = await startRelay({ secure: true });

    expect(await sendThrough({ url: relay.url, from: FROM }, TRUST_TEST_CERTIFICATE)).toEqual({ delivered: true });
    expect(relay.received[0]?.secure).toBe(true);
  });

  it('sends in clear to a loopback relay that offers no STARTTLS (the message never leaves the machine)', async () => {
    const relay = await startRelay({ noStartTls: true });

    expect(await sendThrough({ url: relay.url, from: FROM })).toEqual({ delivered: true });
    expect(relay.received[0]?.secure).toBe(false);
  });

  it('reports a relay\'s refusal by its reply code, a failed try', async () => {
    const relay = await startRelay({ noStartTls: true, refuseWith: 451 });

    expect(await sendThrough({ url: relay.url, from: FROM })).toEqual({ delivered: false, permanent: false, error: 'smtp 451' });
  });

  it('reports a relay that is not there in a few words, a failed try', async () => {
    expect(await sendThrough({ url: `smtp://127.0.0.1:${await freePort()}`, from: FROM })).toEqual({ delivered: false, permanent: false, error: 'network ECONNREFUSED' });
  });

  // STARTTLS is required of a relay on another machine. This machine's own non-loopback address stands for one.
  describe.runIf(nonLoopbackAddress())(`on a non-loopback address (${nonLoopbackAddress() ?? 'none on this machine'})`, () => {
    const host = nonLoopbackAddress()!;

    it('refuses a relay that does not offer STARTTLS: `tls required`, and no message crosses in clear', async () => {
      const relay = await startRelay({ host, noStartTls: true });

      expect(await sendThrough({ url: relay.url, from: FROM })).toEqual({ delivered: false, permanent: false, error: 'tls required' });
      expect(relay.connections).toBe(1);
      expect(relay.received).toHaveLength(0);
    });

    it('sends over STARTTLS to a relay that offers it', async () => {
      const relay = await startRelay({ host });

      expect(await sendThrough({ url: relay.url, from: FROM }, TRUST_TEST_CERTIFICATE)).toEqual({ delivered: true });
      expect(relay.received[0]?.secure).toBe(true);
    });
  });
});
