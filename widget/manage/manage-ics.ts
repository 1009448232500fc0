import { icsFile, type IcsAppointment } from '../../contract/rules/appointment-ics.js';

/**
 * The calendar file that removes the entry the booking's own file made (RFC 5546): the same event,
 * the same UID (the reference), sent as METHOD:CANCEL with STATUS:CANCELLED and a SEQUENCE above
 * the booking file's (which has none, that is 0).
 */
export function cancelIcsFile(appointment: IcsAppointment): string {
  return icsFile(appointment)
    .replace('BEGIN:VEVENT', 'METHOD:CANCEL\r\nBEGIN:VEVENT')
    .replace('END:VEVENT', 'STATUS:CANCELLED\r\nSEQUENCE:1\r\nEND:VEVENT');
}
