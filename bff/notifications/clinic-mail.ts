import type { MailLanguage } from './mail-language.js';
import type { NotificationEvent } from './notification-event.js';
import type { MailWords } from './mail-words/mail-words.js';
import { ar } from './mail-words/ar.js';
import { de } from './mail-words/de.js';
import { en } from './mail-words/en.js';
import { es } from './mail-words/es.js';
import { fr } from './mail-words/fr.js';
import { nl } from './mail-words/nl.js';
import { escapeHtml, factsHtml, factsText, footerHtml, headingHtml, leadHtml, mailFormatters, mailHtml, startSide } from './mail-format.js';

/**
 * The e-mail that tells a clinic's staff of a booking or a change request:
 * what they need to find the booking in their own system (reference, the
 * system's appointment id, date, time, dentist, treatment, the patient's
 * name and phone) and, for a request, what the patient asks. Nothing else of
 * the patient's (docs/privacy.md, "What the clinic is told").
 *
 * Every value is escaped in the HTML: a patient's name or message is
 * whatever a stranger typed. The HTML is plain (no remote images, no
 * scripts, no links), so it reads the same in every mail client and with
 * images blocked; the text part says all of it too.
 */

export interface ClinicMail {
  subject: string;
  text: string;
  html: string;
}

export const MAIL_WORDS: Record<MailLanguage, MailWords> = { en, de, fr, es, nl, ar };

export function renderClinicMail(event: NotificationEvent, language: MailLanguage, clinicName?: string): ClinicMail {
  const words = MAIL_WORDS[language];
  const format = mailFormatters(words.locale);
  const { appointment, patient } = event;
  const { labels } = words;
  const subject = words.subject[event.type](`${format.shortDate(appointment.date)} ${format.time(appointment.time)}`, event.reference);
  const facts: [string, string][] = [
    [labels.reference, event.reference],
    [labels.appointmentId, String(event.appointment_id)],
    [labels.date, format.longDate(appointment.date)],
    [labels.time, format.time(appointment.time)],
    [labels.dentist, appointment.dentist_name ?? words.notGiven],
    [labels.treatment, appointment.treatment_name ?? words.notGiven],
    [labels.patient, patient.name],
    [labels.phone, patient.phone ?? words.notGiven],
  ];
  const starts =
    event.type === 'booking.move_requested'
      ? (event.preferred_starts ?? []).map((start) => format.start(start.date, start.time))
      : [];
  const message = event.type !== 'booking.created' && event.message ? event.message : undefined;
  const mail: Composed = {
    words,
    language,
    subject,
    heading: words.heading[event.type],
    lead: words.lead[event.type],
    facts,
    starts,
    message,
    footer: words.sentBy(clinicName),
  };
  return { subject, text: textOf(mail), html: htmlOf(mail) };
}

interface Composed {
  words: MailWords;
  language: MailLanguage;
  subject: string;
  heading: string;
  lead: string;
  facts: [string, string][];
  starts: string[];
  message?: string;
  footer: string;
}

function textOf({ words, heading, lead, facts, starts, message, footer }: Composed): string {
  const parts = [heading, lead, factsText(facts, words.colon)];
  if (starts.length > 0) parts.push(`${words.labels.preferredStarts}${words.colon.trimEnd()}\n${starts.map((start, i) => `${i + 1}. ${start}`).join('\n')}`);
  if (message) parts.push(`${words.labels.message}${words.colon.trimEnd()}\n${message}`);
  parts.push(`-- \n${footer}`);
  return `${parts.join('\n\n')}\n`;
}

function htmlOf({ words, language, subject, heading, lead, facts, starts, message, footer }: Composed): string {
  const sections: string[] = [];
  if (starts.length > 0) {
    sections.push(
      `<h2 style="font-size:16px;margin:20px 0 4px">${escapeHtml(words.labels.preferredStarts)}</h2>\n` +
        `<ol style="margin:0;padding-${startSide(words.dir)}:24px">${starts.map((wished) => `<li><bdi>${escapeHtml(wished)}</bdi></li>`).join('')}</ol>`,
    );
  }
  if (message) {
    sections.push(
      `<h2 style="font-size:16px;margin:20px 0 4px">${escapeHtml(words.labels.message)}</h2>\n` +
        `<p style="margin:0;white-space:pre-wrap"><bdi>${escapeHtml(message)}</bdi></p>`,
    );
  }
  return mailHtml({ language, dir: words.dir, title: subject }, [
    headingHtml(heading),
    leadHtml(lead),
    factsHtml(facts, words.dir),
    sections.join('\n'),
    footerHtml(escapeHtml(footer)),
  ]);
}
