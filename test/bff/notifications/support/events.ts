import { randomBytes } from 'node:crypto';
import type { NotificationEvent, NotificationEventType } from '../../../../bff/notifications/notification-event.js';
import type { OutboxChannel, OutboxMessage } from '../../../../bff/outbox/outbox-message.js';

export const REFERENCE = 'K7QF-2M9X-PA4T-Z3RW-8HNC';

/** One event of each type, for Thursday 3 December 2026 at 09:30; a move wishes for the 5th at 10:00, then the 7th at 14:15. */
export function eventOf(type: NotificationEventType, changes: Partial<NotificationEvent> = {}): NotificationEvent {
  return {
    type,
    occurred_at: '2026-11-28T10:15:00.000Z',
    site_id: 'default',
    reference: REFERENCE,
    appointment_id: 1042,
    appointment: { date: '2026-12-03', time: '09:30', doctor_id: 2, dentist_name: 'Dr. Anna Weber', treatment_id: 1, treatment_name: 'Check-up' },
    patient: { name: 'Jo Patient', phone: '+44 20 7946 0000' },
    ...(type === 'booking.move_requested'
      ? { preferred_starts: [{ date: '2026-12-05', time: '10:00' }, { date: '2026-12-07', time: '14:15' }], message: 'Mornings suit me best.' }
      : {}),
    ...(type === 'booking.cancel_requested' ? { message: 'I am abroad that week.' } : {}),
    ...changes,
  };
}

const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567';

/** A fresh outbox id: `msg_` and 26 base32 characters. */
export const newMessageId = () => `msg_${Array.from(randomBytes(26), (byte) => BASE32[byte % 32]).join('')}`;

/** An outbox message as the worker holds it: a fresh id unless given. */
export function messageOf(event: NotificationEvent, channel: OutboxChannel, id = newMessageId()): OutboxMessage {
  return {
    id,
    channel,
    event,
    attempts: 1,
    createdAt: Date.parse('2026-11-28T10:15:00.000Z'),
  };
}
