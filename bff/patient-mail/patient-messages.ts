import { randomBytes } from 'node:crypto';
import { instantOf } from '../availability/zoned-time.js';
import { newMessageId } from '../outbox/enqueue.js';
import type { NewOutboxMessage } from '../outbox/outbox-message.js';
import type { PatientMailEvent } from './patient-mail-event.js';

/** A patient's wish for e-mail about one booking, as the BFF keeps it (the patient_mail row). */
export interface PatientMailWish {
  email: string;
  language: PatientMailEvent['language'];
  /** Random: the unsubscribe link's (unsubscribeToken). */
  unsubscribeToken: string;
  /** A week after the appointment, as the booking's other memory (forgetAt). */
  forgetAt: number;
}

/** An unsubscribe link's token: 256 random bits, base64url. Not the reference, which must stay out of URLs. */
export const unsubscribeToken = (): string => randomBytes(32).toString('base64url');

/**
 * The messages a booking's patient who asked for e-mail is sent: the
 * confirmation, due at once, and the reminder, due `reminderHoursBefore`
 * hours before the appointment, unless that is 0 or already past (a booking
 * made inside the window gets none). Both are about the booking
 * (appointmentId), so an unsubscribe or a change request withdraws them.
 */
export function patientMessages(confirmation: PatientMailEvent, reminderHoursBefore: number, now: number): NewOutboxMessage<PatientMailEvent>[] {
  const { appointment, appointment_id: appointmentId } = confirmation;
  const messages: NewOutboxMessage<PatientMailEvent>[] = [{ id: newMessageId(), channel: 'email', event: confirmation, appointmentId }];
  if (reminderHoursBefore > 0) {
    const dueAt = instantOf(appointment.date, appointment.time, appointment.time_zone) - reminderHoursBefore * 3600_000;
    if (dueAt > now) messages.push({ id: newMessageId(), channel: 'email', event: { ...confirmation, type: 'patient.reminder' }, appointmentId, dueAt });
  }
  return messages;
}
