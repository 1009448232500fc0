import ICAL from 'ical.js';
import { describe, expect, it } from 'vitest';
import { icsTitle } from '../../../contract/rules/appointment-ics.js';
import { MAIL_LANGUAGES, type MailLanguage } from '../../../bff/notifications/mail-language.js';
import { PATIENT_MAIL_EVENT_TYPES, type PatientMailEvent, type PatientMailEventType } from '../../../bff/patient-mail/patient-mail-event.js';
import { PATIENT_WORDS, renderPatientMail } from '../../../bff/patient-mail/patient-mail-render.js';
import { unsubscribeHeaders, unsubscribeUrl } from '../../../bff/patient-mail/unsubscribe-link.js';
import { ar } from '../../../widget/i18n/ar.js';
import { de } from '../../../widget/i18n/de.js';
import { en } from '../../../widget/i18n/en.js';
import { es } from '../../../widget/i18n/es.js';
import { fr } from '../../../widget/i18n/fr.js';
import { nl } from '../../../widget/i18n/nl.js';

/**
 * The patient's confirmation and reminder as renderPatientMail writes them,
 * in each of the six languages: the facts in the subject, the text and the
 * HTML, every value escaped, nothing of the patient's, and the calendar
 * entry read back by a real iCalendar parser (ical.js).
 */

const REFERENCE = 'K7QF-2M9X-PA4T-Z3RW-8HNC';
const UNSUBSCRIBE = unsubscribeUrl('https://book.smile.example/', 'tok_0123456789abcdefABCDEF');
const MANAGE = `https://smile.example/book#clinic-booking-manage=${REFERENCE}`;
const NOW = new Date('2026-11-28T10:15:00.000Z');
/** The widget's words: its calendar file's description says "Manage booking" in them. */
const WIDGET_TRANSLATIONS = { en, de, fr, es, nl, ar };

/** Thursday 3 December 2026 at 09:30 in Berlin (08:30 UTC), 30 minutes. */
function eventOf(type: PatientMailEventType, language: MailLanguage, changes: Partial<PatientMailEvent> = {}): PatientMailEvent {
  return {
    type,
    occurred_at: '2026-11-28T10:15:00.000Z',
    site_id: 'default',
    reference: REFERENCE,
    appointment_id: 1042,
    language,
    appointment: { date: '2026-12-03', time: '09:30', time_zone: 'Europe/Berlin', minutes: 30, dentist_name: 'Dr. Anna Weber', treatment_name: 'Check-up' },
    clinic: { name: 'Smile Dental', address: 'Hauptstraße 1, 10115 Berlin', phone: '+49 30 1234567' },
    manage_page_url: 'https://smile.example/book',
    ...changes,
  };
}

/** What Intl writes for the appointment in a language: the mail must use these forms. */
function intl(language: MailLanguage, zone = 'Europe/Berlin', instant = new Date('2026-12-03T08:30:00Z')) {
  const { locale } = PATIENT_WORDS[language];
  const day = new Date(Date.UTC(2026, 11, 3));
  return {
    short: new Intl.DateTimeFormat(locale, { weekday: 'short', day: 'numeric', month: 'short', timeZone: 'UTC' }).format(day),
    full: new Intl.DateTimeFormat(locale, { dateStyle: 'full', timeZone: 'UTC' }).format(day),
    time: new Intl.DateTimeFormat(locale, { timeStyle: 'short', timeZone: 'UTC' }).format(new Date(Date.UTC(1970, 0, 1, 9, 30))),
    zone: new Intl.DateTimeFormat(locale, { timeZone: zone, timeZoneName: 'long' }).formatToParts(instant).find((p) => p.type === 'timeZoneName')!.value,
  };
}

/** Words each language's mail must hold, checked by a reader of that language. */
const SPOT_CHECKS: Record<MailLanguage, { subjects: Record<PatientMailEventType, string>; manage: string; stop: string; reference: string; month: string }> = {
  en: { subjects: { 'patient.confirmation': 'Your appointment on ', 'patient.reminder': 'Reminder: your appointment on ' }, manage: 'Manage or cancel your booking', stop: 'Stop reminders', reference: 'Booking reference', month: 'December' },
  de: { subjects: { 'patient.confirmation': 'Ihr Termin am ', 'patient.reminder': 'Erinnerung: Ihr Termin am ' }, manage: 'Buchung verwalten oder absagen', stop: 'Keine Erinnerungen mehr', reference: 'Buchungsnummer', month: 'Dezember' },
  fr: { subjects: { 'patient.confirmation': 'Votre rendez-vous du ', 'patient.reminder': 'Rappel\u00a0: votre rendez-vous du ' }, manage: 'Gérer ou annuler votre rendez-vous', stop: 'Ne plus recevoir de rappels', reference: 'Référence de réservation', month: 'décembre' },
  es: { subjects: { 'patient.confirmation': 'Su cita del ', 'patient.reminder': 'Recordatorio: su cita del ' }, manage: 'Gestionar o cancelar su cita', stop: 'No recibir más recordatorios', reference: 'Referencia de la reserva', month: 'diciembre' },
  nl: { subjects: { 'patient.confirmation': 'Uw afspraak op ', 'patient.reminder': 'Herinnering: uw afspraak op ' }, manage: 'Uw afspraak beheren of annuleren', stop: 'Geen herinneringen meer', reference: 'Boekingsnummer', month: 'december' },
  ar: { subjects: { 'patient.confirmation': 'تم حجز موعدك يوم ', 'patient.reminder': 'تذكير: موعدك يوم ' }, manage: 'إدارة حجزك أو إلغاؤه', stop: 'إيقاف التذكيرات', reference: 'رقم الحجز', month: 'ديسمبر' },
};

/** The mail's HTML as a browser would read its text: tags dropped, the five escapes undone. */
const textOfHtml = (html: string) =>
  html
    .replace(/<[^>]+>/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');

/** The calendar entry's one event, as ical.js reads it. */
function parsedIcs(content: string) {
  const calendar = new ICAL.Component(ICAL.parse(content));
  const vevent = calendar.getFirstSubcomponent('vevent')!;
  return { event: new ICAL.Event(vevent), vevent };
}

/** An instant's wall-clock date and time in `zone`, by Intl (not by the code under test). */
function wallClock(instant: Date, zone: string): { date: string; time: string } {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' })
      .formatToParts(instant)
      .map((p) => [p.type, p.value]),
  );
  return { date: `${parts.year}-${parts.month}-${parts.day}`, time: `${parts.hour}:${parts.minute}` };
}

describe.each(MAIL_LANGUAGES)('the patient mail in %s', (language) => {
  const words = PATIENT_WORDS[language];
  const spot = SPOT_CHECKS[language];
  const formats = intl(language);

  it.each(PATIENT_MAIL_EVENT_TYPES)('%s: the subject says what and when, in the language, with the clinic', (type) => {
    const { subject } = renderPatientMail(eventOf(type, language), { unsubscribeUrl: UNSUBSCRIBE }, NOW);

    expect(subject.startsWith(spot.subjects[type])).toBe(true);
    expect(subject).toContain(formats.short);
    expect(subject).toContain(formats.time);
    expect(subject).toContain('Smile Dental');
  });

  it.each(PATIENT_MAIL_EVENT_TYPES)('%s: the text and the HTML give every fact, the manage link and the unsubscribe link', (type) => {
    const mail = renderPatientMail(eventOf(type, language), { unsubscribeUrl: UNSUBSCRIBE }, NOW);

    for (const part of [mail.text, textOfHtml(mail.html)]) {
      for (const fact of [formats.full, formats.time, formats.zone, 'Check-up', 'Dr. Anna Weber', 'Smile Dental', 'Hauptstraße 1, 10115 Berlin', '+49 30 1234567', REFERENCE]) {
        expect(part, fact).toContain(fact);
      }
      for (const word of [spot.reference, spot.manage, spot.stop, spot.month]) expect(part, word).toContain(word);
    }
    expect(mail.text).toContain(MANAGE);
    expect(mail.text).toContain(UNSUBSCRIBE);
    expect(mail.html).toContain(`<a href="${MANAGE}"`);
    expect(mail.html).toContain(`<a href="${UNSUBSCRIBE}"`);
    expect(mail.html).toContain(`<html lang="${language}" dir="${words.dir}">`);
  });

  it('puts every value of the HTML in a <bdi>, so an Arabic page keeps Latin names and numbers in their order', () => {
    const { html } = renderPatientMail(eventOf('patient.confirmation', language), { unsubscribeUrl: UNSUBSCRIBE }, NOW);

    for (const value of ['Check-up', 'Dr. Anna Weber', REFERENCE]) expect(html).toContain(`<bdi>${value}</bdi>`);
    // A phone has no letter to take its direction from: left to right, or Arabic would move its + to the end.
    expect(html).toContain('<bdi dir="ltr">+49 30 1234567</bdi>');
  });

  it('attaches the calendar entry to the confirmation: the booking in the clinic’s zone, its title, place and manage link', () => {
    const { ics } = renderPatientMail(eventOf('patient.confirmation', language), { unsubscribeUrl: UNSUBSCRIBE }, NOW);

    expect(ics?.filename).toBe('appointment.ics');
    const { event, vevent } = parsedIcs(ics!.content);
    expect(wallClock(event.startDate.toJSDate(), 'Europe/Berlin')).toEqual({ date: '2026-12-03', time: '09:30' });
    expect(event.duration.toSeconds()).toBe(30 * 60);
    expect(event.uid).toBe(`${REFERENCE}@clinic-booking`);
    expect(event.summary).toBe(icsTitle('Check-up', 'Smile Dental'));
    expect(event.location).toBe('Hauptstraße 1, 10115 Berlin');
    // The widget's own words for the link, so the downloaded file and the attached one say the same.
    expect(event.description).toBe(`${WIDGET_TRANSLATIONS[language].manage}: ${MANAGE}`);
    expect((vevent.getFirstPropertyValue('dtstamp') as ICAL.Time).toJSDate()).toEqual(NOW);
  });

  it('attaches nothing to the reminder', () => {
    expect(renderPatientMail(eventOf('patient.reminder', language), { unsubscribeUrl: UNSUBSCRIBE }, NOW).ics).toBeUndefined();
  });
});

describe('the patient mail', () => {
  const hostile = '<script>alert(1)</script> & "Smile" <img src=x onerror=alert(2)>';

  it.each(PATIENT_MAIL_EVENT_TYPES)('%s: escapes every value the clinic’s content gave, in the HTML', (type) => {
    const mail = renderPatientMail(
      eventOf(type, 'en', {
        clinic: { name: hostile, address: `"><a href="https://evil.example">x</a>`, phone: '<b>0</b>' },
        appointment: { ...eventOf(type, 'en').appointment, dentist_name: '<i>Dr</i>', treatment_name: "O'Brien & <Co>" },
      }),
      { unsubscribeUrl: UNSUBSCRIBE },
      NOW,
    );

    expect(mail.html).not.toMatch(/<script|<img|<b>|<i>|evil\.example">/i);
    expect(mail.html).toContain('&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;Smile&quot;');
    expect(mail.html).toContain('O&#39;Brien &amp; &lt;Co&gt;');
    // The plain text is text: it says them as they are.
    expect(mail.text).toContain(hostile);
    // Only the manage page's and the unsubscribe page's links.
    expect([...mail.html.matchAll(/<a href="([^"]*)"/g)].map((m) => m[1])).toEqual([MANAGE, UNSUBSCRIBE]);
  });

  it('keeps the subject on one line whatever the clinic’s name holds', () => {
    const { subject } = renderPatientMail(eventOf('patient.confirmation', 'en', { clinic: { name: 'Smile\r\nBcc: x@evil.example', address: null, phone: null } }), { unsubscribeUrl: UNSUBSCRIBE }, NOW);

    expect(subject).not.toMatch(/[\r\n]/);
  });

  it('has no remote image, no script and no style sheet from elsewhere', () => {
    const { html } = renderPatientMail(eventOf('patient.confirmation', 'de'), { unsubscribeUrl: UNSUBSCRIBE }, NOW);

    expect(html).not.toMatch(/<img|<script|<link|src=|url\(/i);
  });

  it('names nothing of the patient: no e-mail address and no name, only the booking and the clinic', () => {
    const mail = renderPatientMail(eventOf('patient.confirmation', 'en'), { unsubscribeUrl: UNSUBSCRIBE }, NOW);

    // The event has no patient to name; the mail adds none of its own (no greeting by name, no address).
    expect(Object.keys(eventOf('patient.confirmation', 'en'))).not.toContain('patient');
    expect(`${mail.subject}\n${mail.text}\n${mail.html}`).not.toMatch(/[\w.+-]+@[\w-]+\.[\w.]+/);
  });

  it('without a manage page, gives no link but the clinic’s phone to change or cancel; the calendar entry has no link either', () => {
    const mail = renderPatientMail(eventOf('patient.confirmation', 'en', { manage_page_url: null }), { unsubscribeUrl: UNSUBSCRIBE }, NOW);

    expect(mail.text).not.toContain('clinic-booking-manage');
    expect(mail.html).not.toContain('clinic-booking-manage');
    expect(mail.text).toContain('To change or cancel, call the clinic: +49 30 1234567');
    expect(parsedIcs(mail.ics!.content).event.description).toBe('');
  });

  it('links no manage page that is not http(s)', () => {
    const mail = renderPatientMail(eventOf('patient.reminder', 'en', { manage_page_url: 'javascript:alert(1)' }), { unsubscribeUrl: UNSUBSCRIBE }, NOW);

    expect(mail.html).not.toContain('javascript:');
    expect(mail.text).not.toContain('javascript:');
  });

  it('replaces a fragment of the manage page with the booking’s', () => {
    const mail = renderPatientMail(eventOf('patient.reminder', 'en', { manage_page_url: 'https://smile.example/book#top' }), { unsubscribeUrl: UNSUBSCRIBE }, NOW);

    expect(mail.text).toContain(MANAGE);
    expect(mail.text).not.toContain('#top');
  });

  it('leaves out what the booking did not name: dentist, treatment, the clinic’s address and phone', () => {
    const event = eventOf('patient.reminder', 'en', { clinic: { name: null, address: null, phone: null } });
    event.appointment = { ...event.appointment, dentist_name: null, treatment_name: null };
    const { text, subject } = renderPatientMail(event, { unsubscribeUrl: UNSUBSCRIBE }, NOW);

    expect(subject).toBe('Reminder: your appointment on Thu 3 Dec at 09:30');
    for (const label of ['Dentist', 'Treatment', 'Clinic', 'Address', 'Phone']) expect(text).not.toContain(`${label}: `);
    expect(text).toContain(`Booking reference: ${REFERENCE}`);
  });

  it('names the zone as it is on the day: summer time in New York in July', () => {
    const event = eventOf('patient.confirmation', 'en');
    event.appointment = { ...event.appointment, date: '2026-07-09', time: '16:45', time_zone: 'America/New_York', minutes: 45 };
    const mail = renderPatientMail(event, { unsubscribeUrl: UNSUBSCRIBE }, NOW);

    expect(mail.text).toContain('Time: 16:45 (Eastern Daylight Time)');
    const { event: parsed } = parsedIcs(mail.ics!.content);
    expect(wallClock(parsed.startDate.toJSDate(), 'America/New_York')).toEqual({ date: '2026-07-09', time: '16:45' });
    expect(parsed.startDate.toJSDate().toISOString()).toBe('2026-07-09T20:45:00.000Z');
  });
});

describe('the unsubscribe link', () => {
  it('is the page of the token at the public origin, a trailing slash or none', () => {
    expect(unsubscribeUrl('https://book.smile.example', 'abc_DEF-123')).toBe('https://book.smile.example/mail/unsubscribe/abc_DEF-123');
    expect(unsubscribeUrl('https://book.smile.example/', 'abc_DEF-123')).toBe('https://book.smile.example/mail/unsubscribe/abc_DEF-123');
  });

  it('is named in the two headers of RFC 8058', () => {
    expect(unsubscribeHeaders('https://book.smile.example/mail/unsubscribe/abc')).toEqual({
      'List-Unsubscribe': '<https://book.smile.example/mail/unsubscribe/abc>',
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    });
  });
});
