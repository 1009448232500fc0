import type { NotificationEventType } from '../notification-event.js';

/**
 * The words of the clinic's e-mails in one language (clinic-mail.ts puts
 * them together). Dates and times are not words: Intl writes them in
 * `locale`. Labels name what staff look for in their own system, in the
 * words the widget shows patients (a patient reads out the booking
 * reference as the widget called it).
 */
export interface MailWords {
  /** The BCP 47 tag Intl formats dates and times in. */
  locale: string;
  dir: 'ltr' | 'rtl';
  /** Between a label and its value in the plain text (French sets a space before the colon). */
  colon: string;
  /** The subject: what happened, when the appointment is, the reference (the subject is what an inbox lists). */
  subject: Record<NotificationEventType, (when: string, reference: string) => string>;
  /** The first line of the body. */
  heading: Record<NotificationEventType, string>;
  /** What it means and what staff should do. */
  lead: Record<NotificationEventType, string>;
  labels: {
    reference: string;
    appointmentId: string;
    date: string;
    time: string;
    dentist: string;
    treatment: string;
    patient: string;
    phone: string;
    /** Above the one to three wished starts of a move, in the patient's order. */
    preferredStarts: string;
    /** Above the patient's own words. */
    message: string;
  };
  /** In place of a value the booking did not name (no dentist chosen, no phone). */
  notGiven: string;
  /** The last line: who sent it; the clinic's name when the site has one. */
  sentBy: (clinicName: string | undefined) => string;
}
