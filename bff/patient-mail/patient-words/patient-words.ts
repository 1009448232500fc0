import type { MailDirection } from '../../notifications/mail-format.js';
import type { PatientMailEventType } from '../patient-mail-event.js';

/**
 * The words of a patient's e-mails and of the unsubscribe page in one
 * language (patient-mail-render.ts and unsubscribe-page.ts put them
 * together). Dates, times and the zone's name are not words: Intl writes them
 * in `locale`. Labels are the widget's where it has them (the booking
 * reference as the patient saw it on screen), and the clinic speaks to the
 * patient as the widget does: formally, where the language has a choice.
 */
export interface PatientWords {
  /** The BCP 47 tag Intl formats dates, times and zone names in. */
  locale: string;
  dir: MailDirection;
  /** Between a label and its value in the plain text (French sets a space before the colon). */
  colon: string;
  /** What an inbox lists: the kind of mail and when the appointment is (short date, time); the clinic's name when known. */
  subject: Record<PatientMailEventType, (date: string, time: string, clinic: string | null) => string>;
  /** The first line of the body (long date, time). */
  heading: Record<PatientMailEventType, (date: string, time: string) => string>;
  /** The sentence under it. */
  lead: Record<PatientMailEventType, (clinic: string | null) => string>;
  labels: {
    date: string;
    time: string;
    treatment: string;
    dentist: string;
    clinic: string;
    address: string;
    phone: string;
    reference: string;
  };
  /** The time with its zone's name (Intl's, e.g. "Central European Time"), so a patient elsewhere reads it right. */
  timeInZone: (time: string, zone: string) => string;
  /** The manage link's words. */
  manage: string;
  /** In place of the link when the site has no manage page: the clinic's phone. */
  changeByPhone: (phone: string) => string;
  /** The calendar entry's description before its link: the widget's own "Manage booking", so both files say the same. */
  calendarManage: string;
  /** Under the facts of a confirmation: the attached calendar entry. */
  calendarAttached: string;
  /** The footer: why the patient gets this mail (their own tick when booking). */
  why: (clinic: string | null) => string;
  /** The unsubscribe link's words. */
  stop: string;
  /** The unsubscribe page (GET shows `ask` with its button; POST answers `done`). */
  page: {
    askTitle: string;
    askLead: string;
    button: string;
    doneTitle: string;
    doneLead: string;
    /** A token no row has (used already, the booking over, or never one): says nothing of which. */
    goneTitle: string;
    goneLead: string;
    /** The database failed: nothing was changed. */
    failedTitle: string;
    failedLead: string;
  };
}
