import { generateKeyPairSync } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { BffMetrics } from '../../../bff/metrics/bff-metrics.js';
import { MAIL_RELAY_IDLE_MS, MailSenders } from '../../../bff/notifications/mail-sender.js';
import type { MailRelay } from '../../../bff/notifications/notification-settings.js';
import type { OutgoingMail } from '../../../bff/notifications/outgoing-mail.js';
import { FakeClock } from '../../support/fake-clock.js';
import { checkDkim } from './support/dkim-verify.js';
import { eventOf, messageOf, newMessageId } from './support/events.js';
import { startRelay, type TestRelay } from './support/smtp-relay.js';

/**
 * MailSenders against real SMTP servers (smtp-server) on loopback, each mail
 * read back with mailparser: the relay and sender it is given, DKIM, the
 * headers and attachment of a patient's mail, and what a refusal makes of a try.
 */

const PATIENT = 'jo.patient@mail.example';
const GONE = 'no-such-person@mail.example';
const LATER = 'greylisted@mail.example';
const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const DKIM = { domainName: 'smile-dental.example', keySelector: 'bookings2026', privateKey: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString() };
const ICS = 'BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//clinic-booking//EN\r\nBEGIN:VEVENT\r\nUID:K7QF-2M9X@clinic-booking\r\nDTSTART:20261203T093000Z\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n';

const relay = await startRelay({ noStartTls: true, refuseRecipients: { addresses: [GONE], code: 550 } });
const deferring = await startRelay({ noStartTls: true, refuseRecipients: { addresses: [LATER], code: 451 } });
const metrics = new BffMetrics();
const senders = new MailSenders({ observer: metrics });
afterAll(() => senders.close());

/** A patient's confirmation as the patient deliverer hands it over: its own headers and the .ics. */
const patientMail = (to = PATIENT): OutgoingMail => ({
  to,
  subject: 'Your appointment on Thu 3 Dec at 09:30',
  text: 'See you on Thursday.\n',
  html: '<p>See you on Thursday.</p>',
  headers: {
    'List-Unsubscribe': '<https://book.agency.example/mail/unsubscribe/tok_abc>',
    'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    // The sender's own header: never replaced by a mail's.
    'Auto-Submitted': 'no',
  },
  attachments: [{ filename: 'appointment.ics', content: ICS, contentType: 'text/calendar; charset=utf-8' }],
});
const patientMessage = () => ({ id: newMessageId(), event: { type: 'patient.confirmation' } });

/** Sends and returns what `to` took, checking it took exactly one. */
async function sentThrough(through: TestRelay, mailRelay: MailRelay, message = patientMessage(), mail = patientMail()) {
  const before = through.received.length;
  expect(await senders.send(mailRelay, message, mail)).toEqual({ delivered: true });
  expect(through.received).toHaveLength(before + 1);
  return through.received.at(-1)!;
}

const bounces = async () => (await metrics.registry.getSingleMetric('bff_mail_bounces_total')!.get()).values.map(({ labels, value }) => ({ kind: labels.kind, value }));
/** Bounces of one kind counted so far: the tests share one registry and may run in any order, so each compares its own before and after. */
const bouncesOf = async (kind: string) => (await bounces()).find((entry) => entry.kind === kind)?.value ?? 0;

describe('MailSenders', () => {
  it('sends from the relay\'s sender with a Message-ID of the message\'s id at the sender\'s domain', async () => {
    const message = patientMessage();

    const { mail, envelope } = await sentThrough(relay, { url: relay.url, from: 'bookings@smile-dental.example' }, message);

    expect(envelope).toEqual({ from: 'bookings@smile-dental.example', to: [PATIENT] });
    expect(mail.from?.value).toEqual([{ address: 'bookings@smile-dental.example', name: '' }]);
    expect(mail.messageId).toBe(`<${message.id}@smile-dental.example>`);
  });

  it('passes the mail\'s own headers, keeps its own Auto-Submitted, and attaches the .ics', async () => {
    const { mail, raw } = await sentThrough(relay, { url: relay.url, from: 'bookings@agency.example' });

    expect(raw).toMatch(/^List-Unsubscribe: <https:\/\/book\.agency\.example\/mail\/unsubscribe\/tok_abc>\r$/m);
    expect(raw).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click\r$/m);
    expect(raw.match(/^Auto-Submitted:/gim)).toHaveLength(1);
    expect(mail.headers.get('auto-submitted')).toBe('auto-generated');
    expect(mail.headers.get('x-auto-response-suppress')).toBe('All');
    expect(mail.attachments).toHaveLength(1);
    expect(mail.attachments[0]).toMatchObject({ filename: 'appointment.ics', contentType: 'text/calendar' });
    expect(mail.attachments[0]!.content.toString('utf8')).toBe(ICS);
    expect(mail.text).toBe('See you on Thursday.\n');
  });

  describe('with a DKIM key', () => {
    it('signs: d= and s= are the key\'s, and the signature verifies with its public key over what the relay received', async () => {
      const { raw, mail } = await sentThrough(relay, { url: relay.url, from: 'bookings@smile-dental.example', dkim: DKIM });

      const check = checkDkim(raw, publicKey);

      expect(mail.headers.has('dkim-signature')).toBe(true);
      expect(check?.tags).toMatchObject({ d: 'smile-dental.example', s: 'bookings2026', a: 'rsa-sha256', c: 'relaxed/relaxed' });
      expect(check?.tags.h?.toLowerCase().split(':')).toEqual(expect.arrayContaining(['from', 'to', 'subject', 'message-id', 'list-unsubscribe']));
      expect(check).toMatchObject({ bodyHashHolds: true, signatureHolds: true });
    });

    it('signs what it sent: the same check fails on a changed subject, on another key and on a changed body', async () => {
      const { raw } = await sentThrough(relay, { url: relay.url, from: 'bookings@smile-dental.example', dkim: DKIM });
      const other = generateKeyPairSync('rsa', { modulusLength: 2048 }).publicKey;

      expect(checkDkim(raw.replace(/^Subject: .*$/m, 'Subject: Your appointment was moved'), publicKey)?.signatureHolds).toBe(false);
      expect(checkDkim(raw, other)?.signatureHolds).toBe(false);
      expect(checkDkim(raw.replace('See you on Thursday.', 'See you on Friday.'), publicKey)?.bodyHashHolds).toBe(false);
    });

    it('signs nothing without one', async () => {
      const { mail } = await sentThrough(relay, { url: relay.url, from: 'bookings@agency.example' });

      expect(mail.headers.has('dkim-signature')).toBe(false);
    });
  });

  describe('when the relay refuses', () => {
    it('takes a 550 to the recipient as a bounce: dead at once, and counted as the patient\'s', async () => {
      const before = relay.received.length;
      const [patientBefore, clinicBefore] = [await bouncesOf('patient'), await bouncesOf('clinic')];

      expect(await senders.send({ url: relay.url, from: 'bookings@agency.example' }, patientMessage(), patientMail(GONE))).toEqual({
        delivered: false,
        permanent: true,
        error: 'smtp 550',
      });

      expect(relay.received).toHaveLength(before);
      expect([await bouncesOf('patient'), await bouncesOf('clinic')]).toEqual([patientBefore + 1, clinicBefore]);
    });

    it('counts a bounce of the clinic\'s address as the clinic\'s', async () => {
      const clinic = messageOf(eventOf('booking.created'), 'email');
      const [patientBefore, clinicBefore] = [await bouncesOf('patient'), await bouncesOf('clinic')];

      expect(await senders.send({ url: relay.url, from: 'bookings@agency.example' }, clinic, { ...patientMail(GONE), headers: {}, attachments: [] })).toMatchObject({
        permanent: true,
      });

      expect([await bouncesOf('patient'), await bouncesOf('clinic')]).toEqual([patientBefore, clinicBefore + 1]);
    });

    it('takes a 451 to the recipient as a failed try, to be tried again, and counts no bounce', async () => {
      const counted = await bounces();

      expect(await senders.send({ url: deferring.url, from: 'bookings@agency.example' }, patientMessage(), patientMail(LATER))).toEqual({
        delivered: false,
        permanent: false,
        error: 'smtp 451',
      });

      expect(await bounces()).toEqual(counted);
    });

    it('takes a 5xx to the sender as a failed try: the relay\'s settings are wrong, not the address', async () => {
      const refusing = await startRelay({ noStartTls: true, refuseWith: 553 });

      expect(await senders.send({ url: refusing.url, from: 'bookings@agency.example' }, patientMessage(), patientMail())).toEqual({
        delivered: false,
        permanent: false,
        error: 'smtp 553',
      });
    });

    it('goes on sending through the same relay after a refusal', async () => {
      await senders.send({ url: relay.url, from: 'bookings@agency.example' }, patientMessage(), patientMail(GONE));

      await sentThrough(relay, { url: relay.url, from: 'bookings@agency.example' });
    });
  });

  describe('its relays', () => {
    const from = 'bookings@agency.example';

    it('keeps one pool per relay: a second mail through a relay reuses its connection, another relay gets its own', async () => {
      const [one, two] = [await startRelay({ noStartTls: true }), await startRelay({ noStartTls: true })];
      const own = new MailSenders();
      try {
        for (const through of [one, one, two, one, two]) expect(await own.send({ url: through.url, from }, patientMessage(), patientMail())).toEqual({ delivered: true });

        expect([one.received.length, two.received.length]).toEqual([3, 2]);
        expect([one.connections, two.connections]).toEqual([1, 1]);
        expect(own.openRelays).toBe(2);
      } finally {
        own.close();
      }
    });

    it('holds at most maxRelays: past it the least recently used is closed, and opened again when needed', async () => {
      const [a, b, c] = [await startRelay({ noStartTls: true }), await startRelay({ noStartTls: true }), await startRelay({ noStartTls: true })];
      const own = new MailSenders({ maxRelays: 2 });
      try {
        for (const through of [a, b, a, c]) await own.send({ url: through.url, from }, patientMessage(), patientMail());

        expect(own.openRelays).toBe(2);
        // b was used least recently: closed. a and c kept their connections.
        await own.send({ url: a.url, from }, patientMessage(), patientMail());
        await own.send({ url: b.url, from }, patientMessage(), patientMail());
        expect([a.connections, b.connections, c.connections]).toEqual([1, 2, 1]);
      } finally {
        own.close();
      }
    });

    it('closes a relay unused for the idle time at the next send, and opens it again when needed', async () => {
      const [a, b] = [await startRelay({ noStartTls: true }), await startRelay({ noStartTls: true })];
      const clock = new FakeClock();
      const own = new MailSenders({ clock });
      try {
        await own.send({ url: a.url, from }, patientMessage(), patientMail());
        clock.advance(MAIL_RELAY_IDLE_MS - 1);
        await own.send({ url: b.url, from }, patientMessage(), patientMail());
        expect(own.openRelays).toBe(2);

        clock.advance(1);
        await own.send({ url: b.url, from }, patientMessage(), patientMail());
        expect(own.openRelays).toBe(1);

        await own.send({ url: a.url, from }, patientMessage(), patientMail());
        expect([a.connections, b.connections]).toEqual([2, 1]);
      } finally {
        own.close();
      }
    });

    it('closes every relay at close()', async () => {
      const own = new MailSenders();
      await own.send({ url: relay.url, from }, patientMessage(), patientMail());

      own.close();

      expect(own.openRelays).toBe(0);
    });
  });
});
