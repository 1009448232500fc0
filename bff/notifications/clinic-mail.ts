import type { MailLanguage } from './mail-language.js';
import type { NotificationEvent } from './notification-event.js';
import type { MailWords } from './mail-words/mail-words.js';
import { ar } from './mail-words/ar.js';
import { de } from './mail-words/de.js';
import { en } from './mail-words/en.js';
import { es } from './mail-words/es.js';
import { fr } from './mail-words/fr.js';
import { nl } from './mail-words/nl.js';

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
  const format = formatters(words.locale);
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
  const parts = [heading, lead, facts.map(([label, value]) => `${label}${words.colon}${value}`).join('\n')];
  if (starts.length > 0) parts.push(`${words.labels.preferredStarts}${words.colon.trimEnd()}\n${starts.map((start, i) => `${i + 1}. ${start}`).join('\n')}`);
  if (message) parts.push(`${words.labels.message}${words.colon.trimEnd()}\n${message}`);
  parts.push(`-- \n${footer}`);
  return `${parts.join('\n\n')}\n`;
}

function htmlOf({ words, language, subject, heading, lead, facts, starts, message, footer }: Composed): string {
  const start = words.dir === 'rtl' ? 'right' : 'left';
  const cellPadding = words.dir === 'rtl' ? '4px 0 4px 16px' : '4px 16px 4px 0';
  const rows = facts
    .map(
      ([label, value]) =>
        `<tr><th scope="row" style="text-align:${start};vertical-align:top;padding:${cellPadding};font-weight:bold">${escapeHtml(label)}</th>` +
        `<td style="vertical-align:top;padding:4px 0"><bdi>${escapeHtml(value)}</bdi></td></tr>`,
    )
    .join('\n');
  const sections: string[] = [];
  if (starts.length > 0) {
    sections.push(
      `<h2 style="font-size:16px;margin:20px 0 4px">${escapeHtml(words.labels.preferredStarts)}</h2>\n` +
        `<ol style="margin:0;padding-${start}:24px">${starts.map((wished) => `<li><bdi>${escapeHtml(wished)}</bdi></li>`).join('')}</ol>`,
    );
  }
  if (message) {
    sections.push(
      `<h2 style="font-size:16px;margin:20px 0 4px">${escapeHtml(words.labels.message)}</h2>\n` +
        `<p style="margin:0;white-space:pre-wrap"><bdi>${escapeHtml(message)}</bdi></p>`,
    );
  }
  return `<!DOCTYPE html>
<html lang="${language}" dir="${words.dir}">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(subject)}</title></head>
<body style="margin:0;padding:16px;font-family:Arial,Helvetica,sans-serif;font-size:15px;line-height:1.5;color:#1a1a1a;background:#ffffff;text-align:${start}">
<h1 style="font-size:20px;margin:0 0 8px">${escapeHtml(heading)}</h1>
<p style="margin:0 0 16px">${escapeHtml(lead)}</p>
<table role="presentation" cellpadding="0" cellspacing="0" style="border-collapse:collapse">
${rows}
</table>
${sections.join('\n')}
<p style="margin:24px 0 0;font-size:13px;color:#555555">${escapeHtml(footer)}</p>
</body>
</html>
`;
}

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text as HTML text or attribute value: nothing in it can open a tag, an entity or an attribute. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => HTML_ESCAPES[char]!);
}

/**
 * Dates and times of the clinic's own zone, written in the mail's language.
 * They are wall-clock values (`2026-12-03`, `09:30`), so they are formatted
 * as UTC, which moves nothing; a malformed one is shown as it came.
 */
function formatters(locale: string): Formatters {
  let made = FORMATTERS.get(locale);
  if (!made) FORMATTERS.set(locale, (made = makeFormatters(locale)));
  return made;
}

/**
 * Each language's formatters, made once: an Intl.DateTimeFormat costs more to
 * make than to use (four a mail were 3.5 % of a BFF's CPU delivering a burst,
 * bench:outbox's profile). Six languages at most.
 */
const FORMATTERS = new Map<string, Formatters>();
type Formatters = ReturnType<typeof makeFormatters>;

function makeFormatters(locale: string) {
  const shortDate = new Intl.DateTimeFormat(locale, { weekday: 'short', day: 'numeric', month: 'short', timeZone: 'UTC' });
  const longDate = new Intl.DateTimeFormat(locale, { dateStyle: 'full', timeZone: 'UTC' });
  const clock = new Intl.DateTimeFormat(locale, { timeStyle: 'short', timeZone: 'UTC' });
  const dateAndTime = new Intl.DateTimeFormat(locale, { dateStyle: 'full', timeStyle: 'short', timeZone: 'UTC' });
  const day = (date: string) => {
    const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
    return match ? new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]))) : undefined;
  };
  const moment = (time: string) => {
    const match = /^(\d{2}):(\d{2})(?::\d{2})?$/.exec(time);
    return match ? new Date(Date.UTC(1970, 0, 1, Number(match[1]), Number(match[2]))) : undefined;
  };
  const using = (parse: (value: string) => Date | undefined, format: Intl.DateTimeFormat) => (value: string) => {
    const parsed = parse(value);
    return parsed && !Number.isNaN(parsed.getTime()) ? format.format(parsed) : value;
  };
  const at = (date: string, time: string) => {
    const [when, hour] = [day(date), moment(time)];
    return when && hour ? new Date(when.getTime() + hour.getTime()) : undefined;
  };
  return {
    shortDate: using(day, shortDate),
    longDate: using(day, longDate),
    time: using(moment, clock),
    /** A wished start: its date and time in one phrase, joined as the language joins them. */
    start: (date: string, time: string) => {
      const parsed = at(date, time);
      return parsed && !Number.isNaN(parsed.getTime()) ? dateAndTime.format(parsed) : `${date} ${time}`;
    },
  };
}
