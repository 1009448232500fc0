import { sql, type ExpressionBuilder } from 'kysely';
import type { Db } from '../db/database.js';
import type { Engine } from '../db/engine.js';
import type { Tables } from '../db/schema.js';
import { normalisePhone } from '../../contract/rules/patterns.js';
import { IDEMPOTENCY_WINDOW_MS } from './idempotency.store.js';
import type { AppointmentRecord } from './appointment.store.js';

/**
 * The patient data of appointments, apart from the booking rules: what
 * retention and a patient's rights of access and erasure (GDPR Art. 15, 17)
 * read and erase. Anonymising keeps the row (date, time, dentist, treatment,
 * status: the clinic's statistics) and erases who it was for: the name becomes
 * '', the phone '', the address and the note null.
 *
 * On SQLite the file is opened with `secure_delete` (server/db/sqlite.ts), so
 * the old values are overwritten with zeros, not merely unlinked; `forget()`
 * then checkpoints the WAL, whose older frames still hold them. On
 * PostgreSQL the row is updated; the old row version stays in the table's
 * pages until (auto)vacuum reclaims it (docs/privacy.md).
 */
export class PatientDataStore {
  constructor(
    private readonly db: Db,
    private readonly engine: Engine,
  ) {}

  /**
   * Anonymises every appointment dated before `date` (YYYY-MM-DD) that still
   * holds patient data; answers how many. In statements of RETENTION_BATCH
   * rows, each its own transaction: the first run on years of appointments
   * holds SQLite's write lock, which bookings wait for, only a moment at a time.
   */
  async anonymiseBefore(date: string): Promise<number> {
    let total = 0;
    for (;;) {
      const batch = this.db
        .selectFrom('appointments')
        .select('appointment_id')
        .where('appointment_date', '<', date)
        .where(holdsPatientData)
        .limit(RETENTION_BATCH);
      const result = await this.db.updateTable('appointments').set(ANONYMOUS).where('appointment_id', 'in', batch).executeTakeFirst();
      const updated = Number(result.numUpdatedRows);
      total += updated;
      if (updated < RETENTION_BATCH) return total;
    }
  }

  /** Every appointment of the clinic booked with this phone (normalisePhone), oldest first. */
  async appointmentsOf(careId: number, phone: string): Promise<AppointmentRecord[]> {
    const wanted = normalisePhone(phone);
    // Phones are stored as the patient typed them: compared here, once reduced, not in SQL.
    const rows = await this.db
      .selectFrom('appointments')
      .selectAll()
      .where('care_id', '=', careId)
      .where('patient_phone', '!=', '')
      .orderBy('appointment_id')
      .execute();
    return rows
      .filter((row) => normalisePhone(row.patient_phone) === wanted)
      .map((row) => ({ ...row, created_at: new Date(Number(row.created_at)).toISOString() }));
  }

  /** Anonymises these appointments now; answers how many held patient data. */
  async anonymise(appointmentIds: readonly number[]): Promise<number> {
    if (appointmentIds.length === 0) return 0;
    const result = await this.db
      .updateTable('appointments')
      .set(ANONYMOUS)
      .where('appointment_id', 'in', appointmentIds)
      .where(holdsPatientData)
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  }

  /**
   * Deletes the Idempotency-Key records of the clinic whose stored answer
   * booked one of these appointments: a re-send of an erased booking no
   * longer replays it (which would tell whoever holds the key and body that
   * it was made) and is a new booking request, which the rules decide.
   * Answers how many it deleted. The answers are read here, not matched in
   * SQL: they are JSON text, a clinic holds at most a day of them, and the
   * erasure of a patient is rare.
   */
  async forgetAnswersOf(careId: number, appointmentIds: readonly number[]): Promise<number> {
    if (appointmentIds.length === 0) return 0;
    const erased = new Set(appointmentIds);
    const answers = await this.db
      .selectFrom('idempotency_keys')
      .select(['idempotency_key', 'response_json'])
      .where('care_id', '=', careId)
      .where('status_code', '=', 200)
      .execute();
    const keys = answers
      .filter((row) => {
        const booked = bookedIn(row.response_json);
        return booked !== undefined && erased.has(booked);
      })
      .map((row) => row.idempotency_key);
    if (keys.length === 0) return 0;
    const result = await this.db.deleteFrom('idempotency_keys').where('care_id', '=', careId).where('idempotency_key', 'in', keys).executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  /**
   * Deletes the Idempotency-Key records past their window (they hold the
   * answer, which names no patient, and a SHA-256 of the booking, which is
   * derived from one), and on SQLite moves the WAL into the file and empties
   * it, so that no older frame keeps an erased value. Call it outside any
   * transaction. The checkpoint is best effort: a reader in another process
   * can keep it from truncating; the next one does.
   */
  async forget(now: Date): Promise<void> {
    await this.db
      .deleteFrom('idempotency_keys')
      .where('created_at', '<=', now.getTime() - IDEMPOTENCY_WINDOW_MS)
      .execute();
    if (this.engine === 'sqlite') await sql`PRAGMA wal_checkpoint(TRUNCATE)`.execute(this.db);
  }
}

/** The appointment a stored booking answer booked, if it is one (a 200's `data.appointment_id`). */
function bookedIn(responseJson: string): number | undefined {
  const answer = JSON.parse(responseJson) as { data?: { appointment_id?: unknown } };
  const id = answer.data?.appointment_id;
  return typeof id === 'number' ? id : undefined;
}

/** Appointments anonymised per statement by the retention purge. */
export const RETENTION_BATCH = 500;

const ANONYMOUS = { patient_name: '', patient_phone: '', address: null, note: null } as const;

/** Rows not yet anonymised, so a second run counts nothing twice. */
const holdsPatientData = (eb: ExpressionBuilder<Tables, 'appointments'>) =>
  eb.or([eb('patient_name', '!=', ''), eb('patient_phone', '!=', ''), eb('address', 'is not', null), eb('note', 'is not', null)]);
