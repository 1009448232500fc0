import { clinicLocalTime } from './clinic-time.js';

/*
 * The appointment as an iCalendar file (RFC 5545), one builder for the
 * widget's download and the BFF's confirmation e-mail, so both are the same
 * calendar entry: the same UID (the booking's reference), which a later
 * cancellation file (METHOD:CANCEL) names to remove it.
 */

/** What the file says: the clinic's name and treatment as its title, the address, the start and length, the manage link. */
export interface IcsAppointment {
  title: string;
  address: string;
  /** The clinic's wall-clock date and time (YYYY-MM-DD, HH:MM). */
  date: string;
  time: string;
  minutes: number;
  /** The clinic's IANA zone: the start is then written in UTC; unknown, as the clinic's wall-clock time. */
  zone?: string;
  reference: string;
  description: string;
}

const utcOf = (date: string, time: string): Date => new Date(`${date}T${time}Z`);

/** The instant a clinic's wall-clock time names in its IANA zone (exact except within a DST change). */
export function instantIn(date: string, time: string, zone: string): Date {
  const guess = utcOf(date, time).getTime();
  const seen = clinicLocalTime(new Date(guess), zone);
  return new Date(2 * guess - utcOf(seen.date, seen.time).getTime());
}

const icsText = (text: string) => text.replace(/[\\,;]/g, '\\$&').replace(/\n/g, '\\n');
const icsStamp = (instant: Date) => instant.toISOString().replace(/[-:]|\.\d+/g, '');

/**
 * The file: the start (in UTC when the clinic's zone is known, else as the
 * clinic's wall-clock time), the treatment's length, and the manage link in
 * its description. No patient data. Its UID is the booking's reference.
 * `stamp`: when it was made (DTSTAMP), now unless given.
 */
export function icsFile(a: IcsAppointment, stamp: Date = new Date()): string {
  const start = a.zone ? `${icsStamp(instantIn(a.date, a.time, a.zone))}` : `${a.date.replace(/-/g, '')}T${a.time.replace(':', '')}00`;
  return [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//clinic-booking//EN',
    'BEGIN:VEVENT',
    `UID:${a.reference}@clinic-booking`,
    `DTSTAMP:${icsStamp(stamp)}`,
    `DTSTART:${start}`,
    `DURATION:PT${a.minutes}M`,
    `SUMMARY:${icsText(a.title)}`,
    `LOCATION:${icsText(a.address)}`,
    `DESCRIPTION:${icsText(a.description)}`,
    'END:VEVENT',
    'END:VCALENDAR',
  ]
    .map(folded)
    .join('\r\n')
    .concat('\r\n');
}

const UTF8 = new TextEncoder();

/**
 * A content line folded as RFC 5545 (3.1) asks: no line longer than 75
 * octets, each continuation starting with a space; never inside a
 * character's UTF-8 bytes (a long Arabic or accented title, the manage link).
 */
export function folded(line: string): string {
  const parts: string[] = [];
  let part = '';
  let octets = 0;
  for (const char of line) {
    const size = UTF8.encode(char).length;
    // The first line holds 75 octets; each continuation 74 after its leading space.
    if (octets + size > (parts.length === 0 ? 75 : 74)) {
      parts.push(part);
      part = '';
      octets = 0;
    }
    part += char;
    octets += size;
  }
  parts.push(part);
  return parts.join('\r\n ');
}

/** The title the widget and the e-mail give the entry: the treatment and the clinic's name, those known. */
export const icsTitle = (treatmentName: string | null | undefined, clinicName: string | null | undefined): string =>
  [treatmentName, clinicName].filter(Boolean).join(', ');
