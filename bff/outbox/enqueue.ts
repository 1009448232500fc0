import { randomBytes } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import type { SitesTables } from '../sites/sites-database.js';
import type { NewOutboxMessage, OutboxEvent } from './outbox-message.js';

const CROCKFORD = '0123456789abcdefghjkmnpqrstvwxyz';

/** A message id: `msg_` and 26 Crockford base32 characters of 130 random bits; the webhook-id and the Message-ID's left part. */
export function newMessageId(): string {
  let id = 'msg_';
  for (const byte of randomBytes(26)) id += CROCKFORD[byte & 31];
  return id;
}

/**
 * Queues `messages` for `siteId` inside `db`, which is the transaction that
 * accepts what they tell (a booking's record, a change request): the messages
 * exist exactly when it commits. Due at once, or at their own dueAt (a reminder).
 */
export async function enqueueMessages(
  db: Kysely<SitesTables> | Transaction<SitesTables>,
  siteId: string,
  messages: readonly NewOutboxMessage<OutboxEvent>[],
  now: number,
): Promise<void> {
  if (messages.length === 0) return;
  await db
    .insertInto('outbox_messages')
    .values(
      messages.map((message) => ({
        id: message.id,
        site_id: siteId,
        channel: message.channel,
        event_type: message.event.type,
        payload: JSON.stringify(message.event),
        state: 'pending' as const,
        created_at: now,
        next_attempt_at: message.dueAt ?? now,
        due_at: message.dueAt ?? null,
        appointment_id: message.appointmentId ?? null,
        lease_owner: null,
        lease_until: null,
        finished_at: null,
        last_error: null,
      })),
    )
    .execute();
}
