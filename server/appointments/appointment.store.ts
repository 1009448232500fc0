import { sql } from 'kysely';
import type { AppointmentStatus, AppointmentStatusView, BookAppointmentRequest } from '../../contract/index.js';
import type { Db } from '../db/database.js';
import type { Engine } from '../db/engine.js';
import { BUILT_EACH_TIME, hotQuery, type HotQueries } from '../db/performance/precompiled-queries.js';
import type { AppointmentRow } from '../db/schema.js';
import { UniqueViolation } from '../db/unique-violation.js';

/** A full appointment as the clinic settings area lists it, created_at as an ISO string. */
export type AppointmentRecord = Omit<AppointmentRow, 'created_at'> & { created_at: string };

/** A Scheduled appointment in the way of another: its id and the time it holds its dentist. */
export interface Overlap {
  appointment_id: number;
  appointment_time: string;
  end_time: string;
}

/** The key of the lock on a dentist's day (findOverlap), as decimal digits: doctor_id × 10^8 + YYYYMMDD. */
const dentistDayLock = (doctorId: number, date: string): string => (BigInt(doctorId) * 100_000_000n + BigInt(date.replaceAll('-', ''))).toString();

/**
 * Where a booking of this dentist and date goes in a group commit's
 * transaction (GroupCommitter.run's lockOrder): the order of the lock
 * findOverlap takes, '' without a dentist (no lock).
 */
export function dentistDayLockOrder(doctorId: number | null | undefined, date: string): string {
  return doctorId == null ? '' : dentistDayLock(doctorId, date).padStart(20, '0');
}

/** PostgreSQL: the lock on a dentist's day (findOverlap), `day` as dentistDayLock gives it. */
export const DENTIST_DAY_LOCK = hotQuery('dentist day lock', (_db, { day }: { day: string }) => sql`select pg_advisory_xact_lock(${day}::bigint)`);

/** findOverlap's query, but `except`. */
export const OVERLAP = hotQuery('overlap', (db, { doctorId, date, start, end }: { doctorId: number; date: string; start: string; end: string }) =>
  db
    .selectFrom('appointments')
    .select(['appointment_id', 'appointment_time', 'end_time'])
    .where('doctor_id', '=', doctorId)
    .where('appointment_date', '=', date)
    .where('status', '=', sql.lit('Scheduled'))
    .where('appointment_time', '<', end)
    .where('end_time', '>', start)
    .orderBy('appointment_time')
    .limit(1),
);

/** treatmentAndDentist's query. */
export const TREATMENT_AND_DENTIST = hotQuery(
  'treatment and dentist',
  (db, { careId, treatmentId, doctorId }: { careId: number; treatmentId: number; doctorId: number }) =>
    db.selectNoFrom((eb) => [
      eb
        .selectFrom('treatments')
        .select('duration_minutes')
        .where('care_id', '=', careId)
        .where('treatment_id', '=', treatmentId)
        .where('active', '=', 1)
        .as('treatment_minutes'),
      eb.exists(eb.selectFrom('dentists').select('doctor_id').where('care_id', '=', careId).where('doctor_id', '=', doctorId)).as('dentist_found'),
    ]),
);

/** insert's query: every column written, none left out (a hot query's values are never undefined). */
export const NEW_APPOINTMENT = hotQuery('new appointment', (db, row: Omit<AppointmentRow, 'appointment_id'>) =>
  db
    .insertInto('appointments')
    .values({
      care_id: row.care_id,
      patient_name: row.patient_name,
      patient_phone: row.patient_phone,
      address: row.address,
      appointment_date: row.appointment_date,
      appointment_time: row.appointment_time,
      end_time: row.end_time,
      doctor_id: row.doctor_id,
      treatment_id: row.treatment_id,
      note: row.note,
      status: row.status,
      created_at: row.created_at,
    })
    .onConflict((conflict) => conflict.doNothing())
    .returning('appointment_id'),
);

/** Appointments, always read and written within one clinic. */
export class AppointmentStore {
  /**
   * `engine`: the database's (Database.engine), for a transaction's stores too: on PostgreSQL a booking takes a lock.
   * `queries`: how its hot queries run (the database's precompiled ones, in the app).
   */
  constructor(
    private readonly db: Db,
    private readonly engine: Engine,
    private readonly queries: HotQueries = BUILT_EACH_TIME,
  ) {}

  /**
   * The dentist's Scheduled appointment that overlaps `start`-`end` on `date`
   * (HH:MM, the end excluded: back-to-back is no overlap), if any; `except`
   * leaves one appointment out (the one being put back to Scheduled).
   *
   * Call it inside the transaction that will then write the appointment: the
   * check and the insert must be one step for every writer, in this process or
   * another. On SQLite they are: the write lock, taken at BEGIN IMMEDIATE,
   * lets one transaction at a time run, and a group commit's later bookings
   * read its earlier ones. On PostgreSQL, under READ COMMITTED, two
   * transactions could each find no overlap and both insert; so it first takes
   * a transaction lock on the dentist's day (pg_advisory_xact_lock): a
   * concurrent booking of that dentist and day waits until this transaction
   * ends, then reads what it wrote. A lock rather than an exclusion constraint
   * (EXCLUDE USING gist with btree_gist): that needs CREATE EXTENSION, which a
   * managed database may not grant, and its error would abort the group
   * commit's shared transaction. The lock's key is the dentist and the date
   * as one bigint (doctor_id × 10^8 + YYYYMMDD), a key space apart from the
   * two-int Idempotency-Key locks.
   *
   * One query on the partial index one_scheduled_booking_per_dentist_slot
   * (doctor_id, appointment_date, appointment_time, for Scheduled rows): the
   * dentist's day, up to `end`. 'Scheduled' is written into the SQL, not
   * bound, so that PostgreSQL's generic plan of the prepared statement can
   * still use that index.
   */
  async findOverlap(doctorId: number, date: string, start: string, end: string, except?: number): Promise<Overlap | undefined> {
    if (this.engine === 'postgres') await this.queries.rows(this.db, DENTIST_DAY_LOCK, { day: dentistDayLock(doctorId, date) });
    const values = { doctorId, date, start, end };
    // Putting an appointment back to Scheduled is rare: Kysely builds that one.
    if (except !== undefined) return OVERLAP.build(this.db, values).where('appointment_id', '!=', except).executeTakeFirst();
    const [overlap] = await this.queries.rows(this.db, OVERLAP, values);
    return overlap;
  }

  /**
   * What a booking names, when it names both a treatment and a dentist, read
   * in one query (one round trip on PostgreSQL, not two): the length of the
   * treatment if it is an active one of this clinic (as
   * TreatmentStore.findActive), and whether the dentist is this clinic's (as
   * DentistStore.exists).
   */
  async treatmentAndDentist(
    careId: number,
    treatmentId: number,
    doctorId: number,
  ): Promise<{ treatmentMinutes: number | undefined; dentistFound: boolean }> {
    const [row] = await this.queries.rows(this.db, TREATMENT_AND_DENTIST, { careId, treatmentId, doctorId });
    if (!row) throw new Error('a select without FROM answered no row');
    // exists() is a boolean on PostgreSQL, 0 or 1 on SQLite.
    return { treatmentMinutes: row.treatment_minutes ?? undefined, dentistFound: Boolean(row.dentist_found) };
  }

  /**
   * Inserts the appointment, holding its dentist until `endTime`; throws
   * UniqueViolation when the dentist already has a Scheduled appointment
   * starting then (the index one_scheduled_booking_per_dentist_slot, kept as a
   * second line of defence behind findOverlap, which a caller runs first).
   * ON CONFLICT DO NOTHING rather than the engine's error: on PostgreSQL an
   * error aborts the whole (sub)transaction, and the refusal must still be
   * stored under its Idempotency-Key in the same one. A conflicting insert
   * that is not yet committed is waited for, so the index still decides races.
   */
  async insert(careId: number, booking: BookAppointmentRequest, endTime: string, status: AppointmentStatus, now: Date): Promise<number> {
    const [inserted] = await this.queries.rows(this.db, NEW_APPOINTMENT, {
      care_id: careId,
      patient_name: booking.patient_name,
      patient_phone: booking.patient_phone,
      address: booking.address || null,
      appointment_date: booking.appointment_date,
      appointment_time: booking.appointment_time,
      end_time: endTime,
      doctor_id: booking.doctor_id ?? null,
      treatment_id: booking.treatment_id ?? null,
      note: booking.note || null,
      status,
      created_at: now.getTime(),
    });
    if (!inserted) throw new UniqueViolation('one_scheduled_booking_per_dentist_slot');
    return inserted.appointment_id;
  }

  /** Spec 2.6: the status view, only for this clinic's appointment. */
  async statusView(careId: number, appointmentId: number): Promise<AppointmentStatusView | undefined> {
    const row = await this.db
      .selectFrom('appointments')
      .select(['status', 'patient_name as name', 'appointment_date as date', 'appointment_time as time'])
      .where('care_id', '=', careId)
      .where('appointment_id', '=', appointmentId)
      .executeTakeFirst();
    return row;
  }

  async listForClinic(careId: number): Promise<AppointmentRecord[]> {
    const rows = await this.db
      .selectFrom('appointments')
      .selectAll()
      .where('care_id', '=', careId)
      .orderBy('appointment_id')
      .execute();
    return rows.map((row) => ({ ...row, created_at: new Date(Number(row.created_at)).toISOString() }));
  }

  /** What the clinic settings area needs to change an appointment's status: when it is, with whom, and its status now. */
  async find(
    appointmentId: number,
  ): Promise<Pick<AppointmentRow, 'doctor_id' | 'appointment_date' | 'appointment_time' | 'end_time' | 'status'> | undefined> {
    return this.db
      .selectFrom('appointments')
      .select(['doctor_id', 'appointment_date', 'appointment_time', 'end_time', 'status'])
      .where('appointment_id', '=', appointmentId)
      .executeTakeFirst();
  }

  /** Sets an appointment's status (the clinic settings area); false when there is no such appointment. */
  async setStatus(appointmentId: number, status: AppointmentStatus): Promise<boolean> {
    const result = await this.db
      .updateTable('appointments')
      .set({ status })
      .where('appointment_id', '=', appointmentId)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }
}
