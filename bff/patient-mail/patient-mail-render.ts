import { icsFile, icsTitle, instantIn } from '../../contract/rules/appointment-ics.js';
import { MANAGE_FRAGMENT } from '../../contract/rules/bff-api.js';
import {
  escapeHtml,
  factsHtml,
  factsText,
  footerHtml,
  headingHtml,
  leadHtml,
  mailFormatters,
  mailHtml,
} from '../notifications/mail-format.js';
import type { MailLanguage } from '../notifications/mail-language.js';
import type { PatientMailEvent } from './patient-mail-event.js';
import type { PatientWords } from './patient-words/patient-words.js';
import { ar } from './patient-words/ar.js';
import { de } from './patient-words/de.js';
import { en } from './patient-words/en.js';
import { es } from './patient-words/es.js';
import { fr } from './patient-words/fr.js';
import { nl } from './patient-words/nl.js';

/**
 * The e-mails a patient asked for when booking (decision 19): the
 * confirmation and the reminder, in the widget's language at booking time.
 * What the patient needs to come and to change their mind: the clinic (name,
 * address, phone), the treatment, the dentist, the date and time in the
 * clinic's zone (named, for a patient reading elsewhere), the booking
 * reference, the manage link, and why they get the mail with a link to stop
 * it. Nothing of the patient's own: the event names none (no name, no phone).
 *
 * The confirmation carries the calendar entry (.ics) the widget offers for
 * download, built by the same function from the same facts, so both are one
 * entry (its UID is the reference). The reminder does not attach it again:
 * the patient has had it (the confirmation, the widget), and clients such as
 * Outlook and Gmail offer an attached entry to be added once more, which a
 * nudge a day before should not ask.
 *
 * Every value is escaped in the HTML: the clinic's name and address come
 * from its website content. The HTML is plain (no remote images, no scripts,
 * no tracking), and the text part says all of it too.
 */

export interface PatientMail {
  subject: string;
  text: string;
  html: string;
  /** The calendar entry: the confirmation's only. */
  ics?: { filename: string; content: string };
}

export const PATIENT_WORDS: Record<MailLanguage, PatientWords> = { en, de, fr, es, nl, ar };

/** The attachment's name: the widget downloads the same entry as this file. */
export const ICS_FILENAME = 'appointment.ics';

/**
 * The mail of `event` in its language. `links.unsubscribeUrl` is the
 * patient's one-click page (unsubscribeUrl); `now` stamps the calendar entry.
 */
export function renderPatientMail(event: PatientMailEvent, links: { unsubscribeUrl: string }, now: Date = new Date()): PatientMail {
  const words = PATIENT_WORDS[event.language] ?? PATIENT_WORDS.en;
  const format = mailFormatters(words.locale);
  const { appointment, clinic } = event;
  const clinicName = clinic.name?.trim() || null;
  const time = format.time(appointment.time);
  const subject = oneLine(words.subject[event.type](format.shortDate(appointment.date), time, clinicName));
  const zone = zoneName(words.locale, appointment);
  const { labels } = words;
  const facts: [string, string][] = [
    [labels.date, format.longDate(appointment.date)],
    [labels.time, zone ? words.timeInZone(time, zone) : time],
  ];
  const known = (label: string, value: string | null) => {
    if (value?.trim()) facts.push([label, value.trim()]);
  };
  known(labels.treatment, appointment.treatment_name);
  known(labels.dentist, appointment.dentist_name);
  known(labels.clinic, clinicName);
  known(labels.address, clinic.address);
  known(labels.phone, clinic.phone);
  facts.push([labels.reference, event.reference]);

  const manage = manageLink(event.manage_page_url, event.reference);
  const phone = clinic.phone?.trim();
  const mail: Composed = {
    words,
    language: event.language,
    subject,
    heading: words.heading[event.type](format.longDate(appointment.date), time),
    lead: words.lead[event.type](clinicName),
    facts,
    manage,
    byPhone: !manage && phone ? words.changeByPhone(phone) : undefined,
    calendar: event.type === 'patient.confirmation' ? words.calendarAttached : undefined,
    why: words.why(clinicName),
    unsubscribeUrl: links.unsubscribeUrl,
  };
  const rendered: PatientMail = { subject, text: textOf(mail), html: htmlOf(mail) };
  if (event.type === 'patient.confirmation') {
    rendered.ics = {
      filename: ICS_FILENAME,
      content: icsFile(
        {
          title: icsTitle(appointment.treatment_name, clinic.name),
          address: clinic.address ?? '',
          date: appointment.date,
          time: appointment.time,
          minutes: appointment.minutes,
          zone: appointment.time_zone,
          reference: event.reference,
          description: manage ? `${words.calendarManage}: ${manage}` : '',
        },
        now,
      ),
    };
  }
  return rendered;
}

interface Composed {
  words: PatientWords;
  language: MailLanguage;
  subject: string;
  heading: string;
  lead: string;
  facts: [string, string][];
  manage?: string;
  byPhone?: string;
  calendar?: string;
  why: string;
  unsubscribeUrl: string;
}

function textOf({ words, heading, lead, facts, manage, byPhone, calendar, why, unsubscribeUrl }: Composed): string {
  const parts = [heading, lead, factsText(facts, words.colon)];
  if (manage) parts.push(`${words.manage}${words.colon}${manage}`);
  if (byPhone) parts.push(byPhone);
  if (calendar) parts.push(calendar);
  parts.push(`-- \n${why}\n${words.stop}${words.colon}${unsubscribeUrl}`);
  return `${parts.join('\n\n')}\n`;
}

function htmlOf({ words, language, subject, heading, lead, facts, manage, byPhone, calendar, why, unsubscribeUrl }: Composed): string {
  const body = [headingHtml(heading), leadHtml(lead), factsHtml(facts, words.dir)];
  if (manage) {
    body.push(
      `<p style="margin:20px 0 0"><a href="${escapeHtml(manage)}" style="display:inline-block;padding:10px 16px;border-radius:4px;` +
        `background:#134e4a;color:#ffffff;font-weight:bold;text-decoration:none">${escapeHtml(words.manage)}</a></p>`,
    );
  }
  if (byPhone) body.push(`<p style="margin:20px 0 0"><bdi>${escapeHtml(byPhone)}</bdi></p>`);
  if (calendar) body.push(`<p style="margin:16px 0 0">${escapeHtml(calendar)}</p>`);
  body.push(
    footerHtml(
      `${escapeHtml(why)}<br>\n<a href="${escapeHtml(unsubscribeUrl)}" style="color:#555555">${escapeHtml(words.stop)}</a>`,
    ),
  );
  return mailHtml({ language, dir: words.dir, title: subject }, body);
}

/**
 * The manage link: the page without any fragment of its own, then the
 * reference in the fragment (no server, log or Referer sees it), as the
 * widget writes it. None for no page, or one that is not http(s).
 */
export function manageLink(page: string | null, reference: string): string | undefined {
  if (!page) return undefined;
  const base = page.split('#')[0]!;
  try {
    const { protocol } = new URL(base);
    if (protocol !== 'https:' && protocol !== 'http:') return undefined;
  } catch {
    return undefined;
  }
  return `${base}#${MANAGE_FRAGMENT}=${reference}`;
}

/** A header's text on one line: a name from a clinic's content could hold a line break. */
const oneLine = (text: string) => text.replace(/[\r\n\t\u2028\u2029]+/g, ' ').trim();

/**
 * The zone's name at the appointment (Intl's, in the mail's language, e.g.
 * "Central European Time", "British Summer Time"); undefined for a zone Intl
 * does not know. One formatter per language and zone, made once.
 */
function zoneName(locale: string, { date, time, time_zone: zone }: PatientMailEvent['appointment']): string | undefined {
  const key = `${locale} ${zone}`;
  let format = ZONE_FORMATS.get(key);
  try {
    if (!format) ZONE_FORMATS.set(key, (format = new Intl.DateTimeFormat(locale, { timeZone: zone, timeZoneName: 'long' })));
    const instant = instantIn(date, time, zone);
    if (Number.isNaN(instant.getTime())) return undefined;
    return format.formatToParts(instant).find((part) => part.type === 'timeZoneName')?.value;
  } catch {
    return undefined;
  }
}

const ZONE_FORMATS = new Map<string, Intl.DateTimeFormat>();
