import type { MailLanguage } from '../notifications/mail-language.js';

/**
 * What a patient who asked for e-mail is sent about a booking (docs/privacy.md,
 * "E-mail to patients"): the confirmation at once, and the reminder some hours
 * before the visit. Each is an outbox message on the `email` channel; its
 * payload is this event, which names the booking and the clinic but never the
 * patient: the address is read at delivery from the patient_mail row, so an
 * unsubscribe or an erasure, which delete that row, leaves nothing to send to.
 */
export const PATIENT_MAIL_EVENT_TYPES = ['patient.confirmation', 'patient.reminder'] as const;
export type PatientMailEventType = (typeof PATIENT_MAIL_EVENT_TYPES)[number];

export interface PatientMailEvent {
  type: PatientMailEventType;
  /** When the booking was made (ISO 8601, UTC). */
  occurred_at: string;
  site_id: string;
  /** The patient's reference: in the mail, the manage link's fragment and the calendar entry's UID. */
  reference: string;
  appointment_id: number;
  /** The widget's language when the patient booked: the mail's. */
  language: MailLanguage;
  appointment: {
    /** The clinic's wall-clock date and time, in `time_zone`. */
    date: string;
    time: string;
    /** The clinic's IANA zone. */
    time_zone: string;
    /** The appointment's length (the treatment's, or the clinic's default). */
    minutes: number;
    dentist_name: string | null;
    treatment_name: string | null;
  };
  /** The clinic as its website content named it when the booking was made. */
  clinic: { name: string | null; address: string | null; phone: string | null };
  /** The page the manage link opens, without fragment (BOOKING_PAGE_URL, or the page booked on); null: no manage link. */
  manage_page_url: string | null;
}

/** Whether an outbox payload's event is a patient's (else the clinic's). */
export const isPatientMailEvent = (event: { type: string }): event is PatientMailEvent =>
  (PATIENT_MAIL_EVENT_TYPES as readonly string[]).includes(event.type);
