import type { AppointmentStatus, AppointmentStatusView, BookAppointmentRequest } from '../../contract/index.js';
import type { Db } from '../db/connection.js';
import type { AppointmentRow } from '../db/schema.js';
import { UniqueViolation } from '../db/unique-violation.js';

/** A full appointment as the clinic settings area lists it, created_at as an ISO string. */
export type AppointmentRecord = Omit<AppointmentRow, 'created_at'> & { created_at: string };

/** Appointments, always read and written within one clinic. */
export class AppointmentStore {
  constructor(private readonly db: Db) {}

  /**
   * Inserts the appointment; throws UniqueViolation when the dentist already
   * has a Scheduled appointment then (the index one_scheduled_booking_per_dentist_slot).
   * ON CONFLICT DO NOTHING rather than the engine's error: on PostgreSQL an
   * error aborts the whole (sub)transaction, and the refusal must still be
   * stored under its Idempotency-Key in the same one. A conflicting insert
   * that is not yet committed is waited for, so the index still decides races.
   */
  async insert(careId: number, booking: BookAppointmentRequest, status: AppointmentStatus, now: Date): Promise<number> {
    const inserted = await this.db
      .insertInto('appointments')
      .values({
        care_id: careId,
        patient_name: booking.patient_name,
        patient_phone: booking.patient_phone,
        address: booking.address || null,
        appointment_date: booking.appointment_date,
        appointment_time: booking.appointment_time,
        doctor_id: booking.doctor_id ?? null,
        treatment_id: booking.treatment_id ?? null,
        note: booking.note || null,
        status,
        created_at: now.getTime(),
      })
      .onConflict((conflict) => conflict.doNothing())
      .returning('appointment_id')
      .executeTakeFirst();
    if (!inserted) throw new UniqueViolation('one_scheduled_booking_per_dentist_slot');
    return inserted.appointment_id;
  }

  /** True when the dentist already has a Scheduled appointment starting then. */
  async dentistSlotTaken(doctorId: number, date: string, time: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('appointments')
      .select('appointment_id')
      .where('doctor_id', '=', doctorId)
      .where('appointment_date', '=', date)
      .where('appointment_time', '=', time)
      .where('status', '=', 'Scheduled')
      .executeTakeFirst();
    return row !== undefined;
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
