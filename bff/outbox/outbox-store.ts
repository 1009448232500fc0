import { sql, type Kysely, type Selectable } from 'kysely';
import type { Engine } from '../../platform/database/database-url.js';
import type { OutboxRow, SitesTables } from '../sites/sites-database.js';
import { OUTBOX_STATES, type OutboxChannel, type OutboxEvent, type OutboxMessage, type OutboxState } from './outbox-message.js';

/**
 * The outbox's SQL (decision 18): how the worker leases due messages and
 * records what a try made of them, and what an operator sees and does
 * (`outbox list`, `retry`, `purge`). Times are ms since the epoch, passed in,
 * so the caller's clock decides them.
 */

/** A message as an operator sees it: everything but its payload, which holds a patient's name and phone. */
export interface OutboxEntry {
  id: string;
  siteId: string;
  channel: OutboxChannel;
  eventType: string;
  state: OutboxState;
  attempts: number;
  createdAt: number;
  /** When a pending message is tried next (also kept, unused, once it is finished). */
  nextAttemptAt: number;
  finishedAt: number | null;
  lastError: string | null;
}

/** Rows removed by one round of housekeeping. */
export interface Forgotten {
  messages: number;
  bookingRecords: number;
  changeRequests: number;
  /** Patients' e-mail addresses (patient_mail rows), a week after their appointment. */
  patientMail: number;
}

/** What a failed try may keep as its reason: a code or a short sentence, never more (a receiver's body stays out). */
export const LAST_ERROR_MAX_CHARS = 200;

/** The columns an operator may read: the payload is never selected for them. */
const ENTRY_COLUMNS = [
  'id',
  'site_id',
  'channel',
  'event_type',
  'state',
  'attempts',
  'created_at',
  'next_attempt_at',
  'finished_at',
  'last_error',
] as const;

export class OutboxStore {
  constructor(
    private readonly db: Kysely<SitesTables>,
    /** PostgreSQL claims with FOR UPDATE SKIP LOCKED; SQLite has no such clause and needs none. */
    private readonly engine: Engine,
  ) {}

  /**
   * Leases up to `limit` due messages to `owner` for `leaseMs`, oldest due
   * first, counting the try they are leased for; returns them. Due: pending,
   * next_attempt_at reached, and no live lease (none, or one that ran out
   * because its worker died or hung). One statement, so two workers never
   * lease the same row: on PostgreSQL the rows are locked as they are chosen,
   * and rows another worker is choosing are skipped rather than waited for
   * (a row it already leased fails the re-check of the lease); on SQLite the
   * UPDATE takes the file's one write lock before it reads, so the choice and
   * the lease are one step even across processes (the file waits for that
   * lock: openSitesDatabase's busy timeout).
   */
  async claimDue(owner: string, limit: number, leaseMs: number, now: number): Promise<OutboxMessage<OutboxEvent>[]> {
    if (limit <= 0) return [];
    const rows = await this.db
      .updateTable('outbox_messages')
      .set({ lease_owner: owner, lease_until: now + leaseMs, attempts: sql<number>`attempts + 1` })
      .where('id', 'in', (eb) => {
        const due = eb
          .selectFrom('outbox_messages')
          .select('id')
          .where('state', '=', 'pending')
          .where('next_attempt_at', '<=', now)
          .where((w) => w.or([w('lease_until', 'is', null), w('lease_until', '<', now)]))
          .orderBy('next_attempt_at')
          .orderBy('id')
          .limit(limit);
        return this.engine === 'postgres' ? due.forUpdate().skipLocked() : due;
      })
      .returningAll()
      .execute();
    // RETURNING keeps no order: put them back oldest due first.
    rows.sort((a, b) => Number(a.next_attempt_at) - Number(b.next_attempt_at) || a.id.localeCompare(b.id));
    const messages: OutboxMessage<OutboxEvent>[] = [];
    for (const row of rows) {
      const event = parsedEvent(row.payload);
      if (event) {
        messages.push({
          id: row.id,
          channel: row.channel,
          event,
          attempts: Number(row.attempts),
          createdAt: Number(row.created_at),
          ...(row.due_at !== null ? { dueAt: Number(row.due_at) } : {}),
          ...(row.appointment_id !== null ? { appointmentId: Number(row.appointment_id) } : {}),
        });
      }
      // Never written by enqueueMessages; were it ever, no try could read it, so it waits for an operator instead of looping.
      else await this.markDead(row.id, owner, 'unreadable payload', now);
    }
    return messages;
  }

  /** The try succeeded. False when `owner` no longer holds the lease (another worker took the message over): nothing changed. */
  async markDelivered(id: string, owner: string, now: number): Promise<boolean> {
    return this.finish(id, owner, { state: 'delivered', finished_at: now });
  }

  /** The try failed and another will come at `nextAttemptAt`. Only while `owner` holds the lease. */
  async scheduleRetry(id: string, owner: string, nextAttemptAt: number, error: string): Promise<boolean> {
    return this.finish(id, owner, { next_attempt_at: nextAttemptAt, last_error: shortError(error) });
  }

  /** No try will be made again until an operator retries it. Only while `owner` holds the lease. */
  async markDead(id: string, owner: string, error: string, now: number): Promise<boolean> {
    return this.finish(id, owner, { state: 'dead', finished_at: now, last_error: shortError(error) });
  }

  /**
   * There is nothing to send any more (a reminder of a booking cancelled, or
   * of a patient who unsubscribed): the message is deleted, as a patient's
   * message with nobody to go to is no record worth keeping. Only while
   * `owner` holds the lease.
   */
  async withdraw(id: string, owner: string): Promise<boolean> {
    const result = await this.db
      .deleteFrom('outbox_messages')
      .where('id', '=', id)
      .where('lease_owner', '=', owner)
      .where('state', '=', 'pending')
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /**
   * Ends `owner`'s lease with `changes`. A lease that ran out but was not taken
   * over still counts: the try's outcome is still the truth, and recording it
   * spares the message a second delivery. One that was taken over changes
   * nothing: the new holder's try decides.
   */
  private async finish(id: string, owner: string, changes: Partial<Pick<OutboxRow, 'state' | 'finished_at' | 'next_attempt_at' | 'last_error'>>): Promise<boolean> {
    const result = await this.db
      .updateTable('outbox_messages')
      .set({ ...changes, lease_owner: null, lease_until: null })
      .where('id', '=', id)
      .where('lease_owner', '=', owner)
      .where('state', '=', 'pending')
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** One message as an operator sees it; undefined when there is none of that id. */
  async get(id: string): Promise<OutboxEntry | undefined> {
    const row = await this.db.selectFrom('outbox_messages').select(ENTRY_COLUMNS).where('id', '=', id).executeTakeFirst();
    return row && entryOf(row);
  }

  /** The newest `limit` messages, of one state or all; never their payloads. */
  async list({ state, limit }: { state?: OutboxState; limit: number }): Promise<OutboxEntry[]> {
    let query = this.db.selectFrom('outbox_messages').select(ENTRY_COLUMNS);
    if (state) query = query.where('state', '=', state);
    const rows = await query.orderBy('created_at', 'desc').orderBy('id').limit(limit).execute();
    return rows.map(entryOf);
  }

  /** How many messages are in each state (every state named, 0 when none). */
  async counts(): Promise<Record<OutboxState, number>> {
    const rows = await this.db
      .selectFrom('outbox_messages')
      .select(['state', (eb) => eb.fn.countAll().as('count')])
      .groupBy('state')
      .execute();
    const counts = Object.fromEntries(OUTBOX_STATES.map((state) => [state, 0])) as Record<OutboxState, number>;
    for (const row of rows) counts[row.state] = Number(row.count);
    return counts;
  }

  /**
   * Brings dead messages back (one by id, or every one): pending, due at
   * `now`, no finish time. Their tries so far are kept, for the record
   * (`outbox list`) and for the backoff, and so is their creation time, which
   * the give-up rule counts from: a message retried after it was given up on
   * gets one more try, and dies again at once if that fails, rather than
   * another day of retries an operator did not ask for. Their last error stays
   * until the next try replaces it. Returns how many came back.
   */
  async retry(which: { id: string } | { allDead: true }, now: number): Promise<number> {
    let query = this.db
      .updateTable('outbox_messages')
      .set({ state: 'pending', next_attempt_at: now, finished_at: null, lease_owner: null, lease_until: null })
      .where('state', '=', 'dead');
    if ('id' in which) query = query.where('id', '=', which.id);
    const result = await query.executeTakeFirst();
    return Number(result.numUpdatedRows);
  }

  /**
   * Deletes the delivered or the dead messages, all of them or those finished
   * more than `olderThanMs` before `now`. Never a pending one: it would be lost
   * without anyone having given up on it. Returns how many went.
   */
  async purge({ state, olderThanMs }: { state: 'delivered' | 'dead'; olderThanMs?: number }, now: number): Promise<number> {
    let query = this.db.deleteFrom('outbox_messages').where('state', '=', state);
    if (olderThanMs !== undefined) query = query.where('finished_at', '<', now - olderThanMs);
    const result = await query.executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  /**
   * What the BFF must forget (docs/privacy.md): messages delivered or dead
   * more than `retentionMs` ago (their payloads name a patient), and the
   * booking records, change requests and patients' e-mail addresses past their forget_at.
   */
  async forgetExpired(now: number, retentionMs: number): Promise<Forgotten> {
    const messages = await this.db
      .deleteFrom('outbox_messages')
      .where('state', 'in', ['delivered', 'dead'])
      .where('finished_at', '<', now - retentionMs)
      .executeTakeFirst();
    const bookingRecords = await this.db.deleteFrom('booking_records').where('forget_at', '<', now).executeTakeFirst();
    const changeRequests = await this.db.deleteFrom('change_requests').where('forget_at', '<', now).executeTakeFirst();
    const patientMail = await this.db.deleteFrom('patient_mail').where('forget_at', '<', now).executeTakeFirst();
    return {
      patientMail: Number(patientMail.numDeletedRows),
      messages: Number(messages.numDeletedRows),
      bookingRecords: Number(bookingRecords.numDeletedRows),
      changeRequests: Number(changeRequests.numDeletedRows),
    };
  }
}

/** The event a payload holds; undefined when it is not one (never written so; see claimDue). */
function parsedEvent(payload: string): OutboxEvent | undefined {
  try {
    const event = JSON.parse(payload) as unknown;
    return typeof event === 'object' && event !== null && typeof (event as { type?: unknown }).type === 'string' ? (event as OutboxEvent) : undefined;
  } catch {
    return undefined;
  }
}

/** One line, at most LAST_ERROR_MAX_CHARS: a reason, not a transcript. */
function shortError(error: string): string {
  const line = error.replace(/\s+/g, ' ').trim();
  return line.length > LAST_ERROR_MAX_CHARS ? `${line.slice(0, LAST_ERROR_MAX_CHARS - 1)}…` : line;
}

type EntryRow = Pick<Selectable<OutboxRow>, (typeof ENTRY_COLUMNS)[number]>;

/** bigint columns arrive as strings from PostgreSQL: each is read with Number(). */
function entryOf(row: EntryRow): OutboxEntry {
  return {
    id: row.id,
    siteId: row.site_id,
    channel: row.channel,
    eventType: row.event_type,
    state: row.state,
    attempts: Number(row.attempts),
    createdAt: Number(row.created_at),
    nextAttemptAt: Number(row.next_attempt_at),
    finishedAt: row.finished_at === null ? null : Number(row.finished_at),
    lastError: row.last_error,
  };
}
