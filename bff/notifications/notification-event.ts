/**
 * What the clinic is told, one event per thing that happened, as every channel
 * renders it: the e-mail (its words in the clinic's language) and the webhook
 * (this, as JSON, its `type` and `data`). It names what staff need to find the
 * booking and nothing else (docs/privacy.md, "What the clinic is told").
 */
export const NOTIFICATION_EVENT_TYPES = ['booking.created', 'booking.cancel_requested', 'booking.move_requested'] as const;
export type NotificationEventType = (typeof NOTIFICATION_EVENT_TYPES)[number];

/** One wished start of a move request, in the clinic's time zone. */
export interface PreferredStart {
  date: string;
  time: string;
}

export interface NotificationEvent {
  type: NotificationEventType;
  /** When it happened (ISO 8601, UTC). */
  occurred_at: string;
  /** The site the booking was made on (`default` for the clinic of APP_KEY). */
  site_id: string;
  /** The patient's reference, as the patient reads it out. */
  reference: string;
  /** The clinic system's own appointment id: how staff open the booking (`clinic appointments set-status --id`). */
  appointment_id: number;
  appointment: {
    date: string;
    time: string;
    doctor_id: number | null;
    dentist_name: string | null;
    treatment_id: number | null;
    treatment_name: string | null;
  };
  patient: { name: string; phone: string | null };
  /** booking.move_requested: one to three wished starts, in the patient's order. */
  preferred_starts?: PreferredStart[];
  /** booking.move_requested and booking.cancel_requested: the patient's words, sanitised like a booking's note. */
  message?: string | null;
}
