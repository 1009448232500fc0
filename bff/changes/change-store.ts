import type { Kysely, Transaction } from 'kysely';
import type { PreferredStart } from '../../contract/bff-change-view.js';
import type { SitesTables } from '../sites/sites-database.js';
import { enqueueMessages } from '../outbox/enqueue.js';
import type { NewOutboxMessage, OutboxEvent } from '../outbox/outbox-message.js';
import type { PatientMailWish } from '../patient-mail/patient-messages.js';
import type { ChangeKind, ChangeRequestMade } from './change-rules.js';

/**
 * A booking this BFF made, as a change request days later needs it: the
 * spec's status view names neither dentist, treatment nor phone.
 */
export interface BookingRecord {
  siteId: string;
  appointmentId: number;
  date: string;
  time: string;
  doctorId: number | null;
  treatmentId: number | null;
  phone: string | null;
  /** When it must be gone (ms since the epoch): a week after the appointment (forgetAt). */
  forgetAt: number;
}

/** A change request as it is taken. */
export interface NewChangeRequest {
  siteId: string;
  appointmentId: number;
  kind: ChangeKind;
  /** move: one to three wished starts; cancel: none. */
  preferredStarts: readonly PreferredStart[];
  /** As the booking's: a week after the appointment. */
  forgetAt: number;
}

/** What taking a change request came to: the first request's time, and whether one of its kind was there before. */
export interface ChangeRequestTaken {
  requestedAt: number;
  alreadyRequested: boolean;
}

/**
 * The booking records and change requests of the BFF's own database
 * (decision 0018), each written in one transaction with its outbox messages
 * (enqueueMessages), so a message exists exactly when what it tells does,
 * and a second write of the same thing (a replayed booking, a second request
 * of a kind) writes nothing at all, messages included. What is past its
 * forget_at is never read, whether or not it was deleted yet.
 */
export class ChangeStore {
  /**
   * `onQueued`: called once a transaction that queued messages has committed
   * (the outbox worker's nudge), so they go out at once rather than at its next look.
   */
  constructor(
    private readonly db: Kysely<SitesTables>,
    private readonly onQueued: () => void = () => undefined,
  ) {}

  /**
   * Records a booking and queues `messages` (booking.created). A replay
   * (upstream replayed an Idempotency-Key re-send) recorded already writes
   * nothing. A new booking whose appointment id is recorded already replaces
   * that record, and the change requests made of it go: upstream gave the id
   * anew, so the clinic's system no longer holds the booking they were about
   * (its database was reset, as a demo's is), and the new booking must
   * neither be taken for a replay nor show another patient's requests.
   * True when this call recorded it.
   */
  async recordBooking(
    record: BookingRecord,
    messages: readonly NewOutboxMessage<OutboxEvent>[],
    now: number,
    { replayed, patientMail }: { replayed: boolean; patientMail?: PatientMailWish },
  ): Promise<boolean> {
    const recorded = await this.db.transaction().execute(async (trx) => {
      if (!replayed) {
        for (const table of ['change_requests', 'booking_records', 'patient_mail'] as const) {
          await trx.deleteFrom(table).where('site_id', '=', record.siteId).where('appointment_id', '=', record.appointmentId).execute();
        }
        // And whatever a patient of the id's earlier booking was still to be sent.
        await withdrawPatientMessages(trx, record.siteId, record.appointmentId);
      }
      const inserted = await trx
        .insertInto('booking_records')
        .values({
          site_id: record.siteId,
          appointment_id: record.appointmentId,
          date: record.date,
          time: record.time,
          doctor_id: record.doctorId,
          treatment_id: record.treatmentId,
          patient_phone: record.phone,
          forget_at: record.forgetAt,
        })
        .onConflict((conflict) => conflict.columns(['site_id', 'appointment_id']).doNothing())
        .returning('appointment_id')
        .executeTakeFirst();
      if (!inserted) return false;
      if (patientMail) {
        await trx
          .insertInto('patient_mail')
          .values({
            site_id: record.siteId,
            appointment_id: record.appointmentId,
            email: patientMail.email,
            language: patientMail.language,
            unsubscribe_token: patientMail.unsubscribeToken,
            created_at: now,
            forget_at: patientMail.forgetAt,
          })
          .execute();
      }
      await enqueueMessages(trx, record.siteId, messages, now);
      return true;
    });
    if (recorded && messages.length > 0) this.onQueued();
    return recorded;
  }

  /** The record of a booking this BFF made, until its forget_at; undefined for any other. */
  async readBooking(siteId: string, appointmentId: number, now: number): Promise<BookingRecord | undefined> {
    const row = await this.db
      .selectFrom('booking_records')
      .selectAll()
      .where('site_id', '=', siteId)
      .where('appointment_id', '=', appointmentId)
      .where('forget_at', '>', now)
      .executeTakeFirst();
    if (!row) return undefined;
    return {
      siteId: row.site_id,
      appointmentId: Number(row.appointment_id),
      date: row.date,
      time: row.time,
      doctorId: row.doctor_id === null ? null : Number(row.doctor_id),
      treatmentId: row.treatment_id === null ? null : Number(row.treatment_id),
      phone: row.patient_phone,
      forgetAt: Number(row.forget_at),
    };
  }

  /**
   * Takes a change request and queues `messages`, unless one of its kind was
   * taken for the booking before (the primary key: site, appointment, kind):
   * then nothing is written, and the answer is the first one's time.
   */
  async recordChangeRequest(request: NewChangeRequest, messages: readonly NewOutboxMessage[], now: number): Promise<ChangeRequestTaken> {
    const taken = await this.db.transaction().execute(async (trx): Promise<ChangeRequestTaken> => {
      const inserted = await trx
        .insertInto('change_requests')
        .values({
          site_id: request.siteId,
          appointment_id: request.appointmentId,
          kind: request.kind,
          requested_at: now,
          preferred_starts: request.kind === 'move' ? JSON.stringify(request.preferredStarts.map(({ date, time }) => ({ date, time }))) : null,
          forget_at: request.forgetAt,
        })
        .onConflict((conflict) => conflict.columns(['site_id', 'appointment_id', 'kind']).doNothing())
        .returning('requested_at')
        .executeTakeFirst();
      if (inserted) {
        // The time is no longer sure: no reminder of it goes (decision 19); the clinic confirms a new one itself.
        await withdrawPatientMessages(trx, request.siteId, request.appointmentId, 'patient.reminder');
        await enqueueMessages(trx, request.siteId, messages, now);
        return { requestedAt: Number(inserted.requested_at), alreadyRequested: false };
      }
      // The first one's, committed before this insert found it (PostgreSQL waits for it; SQLite has one writer).
      const first = await trx
        .selectFrom('change_requests')
        .select('requested_at')
        .where('site_id', '=', request.siteId)
        .where('appointment_id', '=', request.appointmentId)
        .where('kind', '=', request.kind)
        .executeTakeFirstOrThrow();
      return { requestedAt: Number(first.requested_at), alreadyRequested: true };
    });
    if (!taken.alreadyRequested && messages.length > 0) this.onQueued();
    return taken;
  }

  /** The change requests taken for a booking, until their forget_at: at most one of each kind. */
  async readChangeRequests(siteId: string, appointmentId: number, now: number): Promise<ChangeRequestMade[]> {
    const rows = await this.db
      .selectFrom('change_requests')
      .select(['kind', 'requested_at', 'preferred_starts'])
      .where('site_id', '=', siteId)
      .where('appointment_id', '=', appointmentId)
      .where('forget_at', '>', now)
      .execute();
    return rows.map((row) => ({
      kind: row.kind,
      requestedAt: Number(row.requested_at),
      preferredStarts: row.preferred_starts === null ? [] : (JSON.parse(row.preferred_starts) as PreferredStart[]),
    }));
  }
}

/**
 * Deletes the patient's messages of a booking still to be sent (pending), of
 * one type or every patient type. One a worker is sending this very moment
 * goes out all the same; its worker then finds it gone and records nothing.
 */
async function withdrawPatientMessages(trx: Transaction<SitesTables>, siteId: string, appointmentId: number, type?: string): Promise<void> {
  let query = trx
    .deleteFrom('outbox_messages')
    .where('site_id', '=', siteId)
    .where('appointment_id', '=', appointmentId)
    .where('state', '=', 'pending');
  query = type ? query.where('event_type', '=', type) : query.where('event_type', 'like', 'patient.%');
  await query.execute();
}
