import { afterAll, describe, expect, it } from 'vitest';
import { MAIL_LANGUAGES, type MailLanguage } from '../../../bff/notifications/mail-language.js';
import { clinicMailOf, type MailRecipient } from '../../../bff/notifications/channel-deliverer.js';
import { MailSenders } from '../../../bff/notifications/mail-sender.js';
import type { OutboxMessage } from '../../../bff/outbox/outbox-message.js';
import { NOTIFICATION_EVENT_TYPES, type NotificationEventType } from '../../../bff/notifications/notification-event.js';
import { MAIL_WORDS } from '../../../bff/notifications/clinic-mail.js';
import { eventOf, messageOf, REFERENCE } from './support/events.js';
import { startRelay, type ReceivedMail } from './support/smtp-relay.js';

/**
 * The clinic's e-mail as a mail client reads it: sent through the real
 * sender to a real SMTP server on loopback, parsed by mailparser. The relay
 * offers no STARTTLS, as loopback may (mail-transport.test.ts has TLS).
 */
const relay = await startRelay({ noStartTls: true });
const FROM = 'bookings@agency.example';
const TO = 'reception@smile.example';
const senders = new MailSenders();
afterAll(() => senders.close());

/** Sends the clinic's e-mail of `message` to `to` and returns what the relay took. */
async function sent(message: OutboxMessage, to: MailRecipient): Promise<ReceivedMail> {
  const before = relay.received.length;
  expect(await senders.send({ url: relay.url, from: FROM }, message, clinicMailOf(message, to))).toEqual({ delivered: true });
  expect(relay.received).toHaveLength(before + 1);
  return relay.received.at(-1)!;
}

/** What Intl writes for the appointment (Thursday 3 December 2026, 09:30) in a language's locale: the mail must use these forms. */
const intl = (language: MailLanguage) => {
  const { locale } = MAIL_WORDS[language];
  const day = new Date(Date.UTC(2026, 11, 3));
  const at = new Date(Date.UTC(1970, 0, 1, 9, 30));
  return {
    short: new Intl.DateTimeFormat(locale, { weekday: 'short', day: 'numeric', month: 'short', timeZone: 'UTC' }).format(day),
    full: new Intl.DateTimeFormat(locale, { dateStyle: 'full', timeZone: 'UTC' }).format(day),
    time: new Intl.DateTimeFormat(locale, { timeStyle: 'short', timeZone: 'UTC' }).format(at),
    firstWish: new Intl.DateTimeFormat(locale, { dateStyle: 'full', timeStyle: 'short', timeZone: 'UTC' }).format(new Date(Date.UTC(2026, 11, 5, 10, 0))),
  };
};

/** Words each language's mail must hold, checked by a reader of that language: the subject's start, the reference's label, a word of the lead. */
const SPOT_CHECKS: Record<MailLanguage, { subjects: Record<NotificationEventType, string>; reference: string; phone: string; month: string; leads: Record<NotificationEventType, string> }> = {
  en: {
    subjects: { 'booking.created': 'New booking: ', 'booking.cancel_requested': 'Cancellation request: ', 'booking.move_requested': 'Reschedule request: ' },
    reference: 'Booking reference',
    phone: 'Phone',
    month: 'December',
    leads: { 'booking.created': 'already in your clinic system', 'booking.cancel_requested': 'has not been cancelled yet', 'booking.move_requested': 'agree a new time' },
  },
  de: {
    subjects: { 'booking.created': 'Neue Buchung: ', 'booking.cancel_requested': 'Absagewunsch: ', 'booking.move_requested': 'Verschiebungswunsch: ' },
    reference: 'Buchungsnummer',
    phone: 'Telefon',
    month: 'Dezember',
    leads: { 'booking.created': 'bereits in Ihrem Praxissystem', 'booking.cancel_requested': 'noch nicht storniert', 'booking.move_requested': 'eine neue Zeit' },
  },
  fr: {
    subjects: { 'booking.created': 'Nouvelle réservation\u00a0: ', 'booking.cancel_requested': 'Demande d’annulation\u00a0: ', 'booking.move_requested': 'Demande de changement d’horaire\u00a0: ' },
    reference: 'Référence de réservation',
    phone: 'Téléphone',
    month: 'décembre',
    leads: { 'booking.created': 'figure déjà dans votre logiciel', 'booking.cancel_requested': 'pas encore annulé', 'booking.move_requested': 'un nouvel horaire' },
  },
  es: {
    subjects: { 'booking.created': 'Nueva reserva: ', 'booking.cancel_requested': 'Solicitud de cancelación: ', 'booking.move_requested': 'Solicitud de cambio de cita: ' },
    reference: 'Referencia de la reserva',
    phone: 'Teléfono',
    month: 'diciembre',
    leads: { 'booking.created': 'ya figura en el sistema', 'booking.cancel_requested': 'Todavía no está cancelada', 'booking.move_requested': 'una nueva hora' },
  },
  nl: {
    subjects: { 'booking.created': 'Nieuwe afspraak: ', 'booking.cancel_requested': 'Annuleringsverzoek: ', 'booking.move_requested': 'Verzoek om te verzetten: ' },
    reference: 'Boekingsnummer',
    phone: 'Telefoon',
    month: 'december',
    leads: { 'booking.created': 'staat al in uw praktijksysteem', 'booking.cancel_requested': 'nog niet geannuleerd', 'booking.move_requested': 'een nieuw tijdstip' },
  },
  ar: {
    subjects: { 'booking.created': 'حجز جديد: ', 'booking.cancel_requested': 'طلب إلغاء: ', 'booking.move_requested': 'طلب تغيير موعد: ' },
    reference: 'رقم الحجز',
    phone: 'الهاتف',
    month: 'ديسمبر',
    leads: { 'booking.created': 'مسجَّل بالفعل في نظام العيادة', 'booking.cancel_requested': 'لم يُلغَ الموعد بعد', 'booking.move_requested': 'موعد جديد' },
  },
};

describe('the clinic e-mail, as the relay receives it', () => {
  it('comes from MAIL_FROM to the site\'s address, says what happened and when in its subject, with a Message-ID of the message\'s id', async () => {
    const message = messageOf(eventOf('booking.created'), 'email');

    const { mail, envelope } = await sent(message, { address: TO, language: 'en' });

    expect(envelope).toEqual({ from: FROM, to: [TO] });
    expect(mail.from?.value).toEqual([{ address: FROM, name: '' }]);
    expect(mail.to).toMatchObject({ value: [{ address: TO, name: '' }] });
    expect(mail.subject).toBe(`New booking: Thu 3 Dec 09:30, ${REFERENCE}`);
    expect(mail.messageId).toBe(`<${message.id}@agency.example>`);
    // No out-of-office reply comes back to MAIL_FROM.
    expect(mail.headers.get('auto-submitted')).toBe('auto-generated');
  });

  it('keeps one Message-ID over two sends of one message, so the clinic\'s mail client shows one, and gives another message its own', async () => {
    const message = messageOf(eventOf('booking.cancel_requested'), 'email');

    const first = await sent(message, { address: TO, language: 'en' });
    const again = await sent({ ...message, attempts: 2 }, { address: TO, language: 'en' });
    const other = await sent(messageOf(eventOf('booking.cancel_requested'), 'email'), { address: TO, language: 'en' });

    expect(again.mail.messageId).toBe(first.mail.messageId);
    expect(other.mail.messageId).not.toBe(first.mail.messageId);
  });

  it('names what staff need to find the booking, and nothing more of the patient', async () => {
    const { mail } = await sent(messageOf(eventOf('booking.created'), 'email'), { address: TO, language: 'en', clinicName: 'Smile Dental' });

    expect(mail.text).toContain(`Booking reference: ${REFERENCE}`);
    expect(mail.text).toContain('Appointment ID (clinic system): 1042');
    expect(mail.text).toContain('Date: Thursday, 3 December 2026');
    expect(mail.text).toContain('Time: 09:30');
    expect(mail.text).toContain('Dentist: Dr. Anna Weber');
    expect(mail.text).toContain('Treatment: Check-up');
    expect(mail.text).toContain('Patient: Jo Patient');
    expect(mail.text).toContain('Phone: +44 20 7946 0000');
    expect(mail.text).toContain('Sent automatically by the online booking of Smile Dental.');
    expect(mail.text).not.toContain('Message');
    expect(mail.html).toContain('<bdi dir="ltr">+44 20 7946 0000</bdi>');
  });

  it('lists a move\'s wished starts in the patient\'s order, with the patient\'s message', async () => {
    const { mail } = await sent(messageOf(eventOf('booking.move_requested'), 'email'), { address: TO, language: 'en' });

    expect(mail.text).toContain(
      'Preferred new times, in order of preference:\n1. Saturday, 5 December 2026 at 10:00\n2. Monday, 7 December 2026 at 14:15\n\nMessage from the patient:\nMornings suit me best.',
    );
    expect(mail.html).toMatch(/<ol[^>]*><li><bdi>Saturday, 5 December 2026 at 10:00<\/bdi><\/li><li><bdi>Monday, 7 December 2026 at 14:15<\/bdi><\/li><\/ol>/);
  });

  it('says "not given" where the booking named no dentist, treatment or phone, and leaves out a request\'s missing message', async () => {
    const event = eventOf('booking.cancel_requested', {
      appointment: { date: '2026-12-03', time: '09:30', doctor_id: null, dentist_name: null, treatment_id: null, treatment_name: null },
      patient: { name: 'Jo Patient', phone: null },
      message: null,
    });

    const { mail } = await sent(messageOf(event, 'email'), { address: TO, language: 'en' });

    expect(mail.text).toContain('Dentist: not given\nTreatment: not given');
    expect(mail.text).toContain('Phone: not given');
    expect(mail.text).not.toContain('Message from the patient');
  });

  it('escapes a hostile name and message in the HTML, and loads nothing from elsewhere', async () => {
    const hostile = eventOf('booking.move_requested', {
      patient: { name: 'Jo <script>alert("x")</script><img src=https://evil.example/t.gif>', phone: '"><b>0123</b>' },
      message: "</p><a href='https://evil.example'>click</a> & more",
    });

    const { mail } = await sent(messageOf(hostile, 'email'), { address: TO, language: 'en' });

    const html = mail.html as string;
    expect(html).toContain('Jo &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&lt;img src=https://evil.example/t.gif&gt;');
    expect(html).toContain('&quot;&gt;&lt;b&gt;0123&lt;/b&gt;');
    expect(html).toContain('&lt;/p&gt;&lt;a href=&#39;https://evil.example&#39;&gt;click&lt;/a&gt; &amp; more');
    expect(html).not.toMatch(/<script|<img|<a |<b>/i);
    // No tag of the mail loads or links anything.
    expect(html).not.toMatch(/<[^>]*\b(src|href|background)\s*=|url\(/i);
    // The text part shows what the patient typed, as typed: staff read it, no client runs it.
    expect(mail.text).toContain('Patient: Jo <script>alert("x")</script>');
  });

  describe.each(MAIL_LANGUAGES)('in %s', (language) => {
    const words = SPOT_CHECKS[language];
    const formats = intl(language);

    it.each(NOTIFICATION_EVENT_TYPES)('words %s in the language, with its dates and times', async (type) => {
      const { mail } = await sent(messageOf(eventOf(type), 'email'), { address: TO, language, clinicName: 'Smile Dental' });

      const subjectEnd = language === 'ar' ? `، ${REFERENCE}` : `, ${REFERENCE}`;
      expect(mail.subject).toBe(`${words.subjects[type]}${formats.short} ${formats.time}${subjectEnd}`);
      const text = mail.text!;
      expect(text).toContain(words.leads[type]);
      expect(text).toContain(`${words.reference}${MAIL_WORDS[language].colon}${REFERENCE}`);
      expect(text).toContain(`${words.phone}${MAIL_WORDS[language].colon}+44 20 7946 0000`);
      expect(text).toContain(formats.full);
      expect(formats.full).toContain(words.month);
      expect(text).toContain('Smile Dental');
      if (type === 'booking.move_requested') {
        expect(text).toContain(`1. ${formats.firstWish}`);
        expect(text).toContain('Mornings suit me best.');
      }
      if (type === 'booking.cancel_requested') expect(text).toContain('I am abroad that week.');

      const html = mail.html as string;
      expect(html).toContain(`<html lang="${language}" dir="${language === 'ar' ? 'rtl' : 'ltr'}">`);
      expect(html).toContain(`>${words.reference}</th>`);
      expect(html).toContain(words.leads[type]);
    });
  });
});
