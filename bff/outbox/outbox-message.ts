import type { NotificationEvent } from '../notifications/notification-event.js';
import type { PatientMailEvent } from '../patient-mail/patient-mail-event.js';

/**
 * The outbox (docs/operations.md, "The outbox"): each message to the clinic is
 * a row in the BFF's own database, written in the same transaction that
 * accepts what it tells, and delivered by a worker, at least once, under a
 * stable id (the webhook-id; the e-mail's Message-ID).
 */

/** How a message reaches the clinic: one row per channel, so a failing webhook never sends the e-mail again. */
export const OUTBOX_CHANNELS = ['email', 'webhook'] as const;
export type OutboxChannel = (typeof OUTBOX_CHANNELS)[number];

/** pending: to deliver (now or at next_attempt_at); delivered: done (deleted after retention); dead: given up (retry brings it back). */
export const OUTBOX_STATES = ['pending', 'delivered', 'dead'] as const;
export type OutboxState = (typeof OUTBOX_STATES)[number];

/** What a message tells: the clinic of a booking or request, or the patient of their booking (decision 19). */
export type OutboxEvent = NotificationEvent | PatientMailEvent;

/** A message as it is queued. */
export interface NewOutboxMessage<E extends OutboxEvent = NotificationEvent> {
  /** Stable over every try: `msg_` and 26 base32 characters, unique in the outbox. */
  id: string;
  channel: OutboxChannel;
  event: E;
  /** When it is due (ms since the epoch), if later than when it is queued: a reminder. */
  dueAt?: number;
  /** The booking a patient's message is about: withdrawn with it (unsubscribe, a change request). */
  appointmentId?: number;
}

/** A message as the worker holds it while delivering. */
export interface OutboxMessage<E extends OutboxEvent = NotificationEvent> extends NewOutboxMessage<E> {
  /** Tries so far, this one included. */
  attempts: number;
  /** When it was queued (ms since the epoch). */
  createdAt: number;
}

/**
 * What one try made of a message. `permanent`: no later try can succeed (no
 * such site or channel any more): dead at once. `withdrawn`: there is nothing
 * to send any more, and nothing went wrong (a reminder of a booking cancelled,
 * or of a patient who unsubscribed): the message is deleted.
 */
export type DeliveryResult =
  | { delivered: true }
  | { delivered: false; permanent: boolean; error: string }
  | { delivered: false; withdrawn: true; reason: string };

/** Delivers one message over its channel; never throws, never reads more of a receiver's answer than its status. */
export interface Deliverer<E extends OutboxEvent = NotificationEvent> {
  deliver(message: OutboxMessage<E>): Promise<DeliveryResult>;
}
