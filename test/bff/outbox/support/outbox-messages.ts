import type { Kysely } from 'kysely';
import type { NotificationEvent } from '../../../../bff/notifications/notification-event.js';
import { enqueueMessages, newMessageId } from '../../../../bff/outbox/enqueue.js';
import type { OutboxChannel } from '../../../../bff/outbox/outbox-message.js';
import type { SitesTables } from '../../../../bff/sites/sites-database.js';

/** The patient of every queued event: no log line, listing or metric may ever contain these. */
export const PATIENT_NAME = 'Ada Quillfeather';
export const PATIENT_PHONE = '+44 7700 900461';

/** A booking.created event of `siteId`, as the booking path queues it. */
export function bookingCreated(siteId = 'default'): NotificationEvent {
  return {
    type: 'booking.created',
    occurred_at: '2026-11-23T09:00:00.000Z',
    site_id: siteId,
    reference: 'K7QM-4XRT',
    appointment_id: 4211,
    appointment: { date: '2026-11-25', time: '10:30', doctor_id: 2, dentist_name: 'Dr Okafor', treatment_id: 3, treatment_name: 'Check-up' },
    patient: { name: PATIENT_NAME, phone: PATIENT_PHONE },
  };
}

/** Queues `count` messages of `siteId` on `channel` at `now`, as the booking path does; their ids, in order. */
export async function queue(db: Kysely<SitesTables>, now: number, { count = 1, siteId = 'default', channel = 'webhook' as OutboxChannel } = {}): Promise<string[]> {
  const messages = Array.from({ length: count }, () => ({ id: newMessageId(), channel, event: bookingCreated(siteId) }));
  await enqueueMessages(db, siteId, messages, now);
  return messages.map((message) => message.id);
}
