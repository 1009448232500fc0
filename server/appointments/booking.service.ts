import { createHash } from 'node:crypto';
import type { BookAppointmentRequest, BookAppointmentResponse, ErrorBody } from '../../contract/index.js';
import { LIMITS } from '../../contract/index.js';
import type { Clock } from '../../platform/clock.js';
import type { Db } from '../db/connection.js';
import { ApiError } from '../../contract/errors.js';
import { DentistStore } from '../dentists/dentist.store.js';
import { TreatmentStore } from '../treatments/treatment.store.js';
import { WebsiteStore } from '../website/website.store.js';
import { ClinicStore } from '../clinics/clinic.store.js';
import { AppointmentStore } from './appointment.store.js';
import { IdempotencyStore } from './idempotency.store.js';
import { addDays, clinicLocalTime } from '../../contract/rules/clinic-time.js';
import { checkOpeningHours } from '../../contract/rules/opening-hours.js';
import { GroupCommitter } from '../db/group-commit.js';

export interface BookingAnswer {
  status: number;
  body: BookAppointmentResponse | ErrorBody;
  /** True when this is the stored first answer to a repeated Idempotency-Key. */
  replayed: boolean;
}

/**
 * The booking rules of POST /appointments/book (spec 4.1) and the decisions
 * where the spec is silent (README, "Where the spec is silent").
 */
export class BookingService {
  private readonly commits: GroupCommitter;

  constructor(
    db: Db,
    private readonly clock: Clock,
  ) {
    this.commits = new GroupCommitter(db);
  }

  /**
   * Books in one transaction (shared with bookings that arrive together, see
   * GroupCommitter): the idempotency check, every rule, the insert and the
   * stored answer commit together or not at all, and the single SQLite writer
   * serialises concurrent bookings. The answer is given only once committed.
   */
  async book(
    careId: number,
    booking: BookAppointmentRequest,
    rawBody: unknown,
    idempotencyKey: string | undefined,
  ): Promise<BookingAnswer> {
    const now = this.clock.now();
    return this.commits.run(async (trx) => {
      const idempotency = new IdempotencyStore(trx);
      const requestHash = hashRequest(rawBody);
      if (idempotencyKey) {
        const earlier = await idempotency.find(careId, idempotencyKey, now);
        if (earlier && earlier.requestHash !== requestHash) {
          throw new ApiError(
            'idempotency_key_reused',
            'This Idempotency-Key was already used with a different request body; use a new key for a new booking',
          );
        }
        if (earlier) return { status: earlier.status, body: earlier.body as BookingAnswer['body'], replayed: true };
      }

      const answer = await this.decide(trx, careId, booking, now);
      if (idempotencyKey) await idempotency.save(careId, idempotencyKey, { requestHash, ...answer }, now);
      return { ...answer, replayed: false };
    });
  }

  private async decide(
    trx: Db,
    careId: number,
    booking: BookAppointmentRequest,
    now: Date,
  ): Promise<Omit<BookingAnswer, 'replayed'>> {
    try {
      await this.checkRules(trx, careId, booking, now);
      const appointmentId = await new AppointmentStore(trx).insert(careId, booking, 'Scheduled', now);
      const body: BookAppointmentResponse = {
        success: true,
        message: 'Appointment booked successfully',
        data: { appointment_id: appointmentId },
      };
      return { status: 200, body };
    } catch (error) {
      const refusal = isUniqueViolation(error) ? slotUnavailable() : error;
      if (!(refusal instanceof ApiError)) throw refusal;
      return { status: refusal.status, body: { success: false, message: refusal.message, error_code: refusal.code } };
    }
  }

  private async checkRules(trx: Db, careId: number, booking: BookAppointmentRequest, now: Date): Promise<void> {
    const { appointment_date: date, appointment_time: time, doctor_id, treatment_id } = booking;
    const timezone = await new ClinicStore(trx).timezone(careId);
    const settings = await new WebsiteStore(trx).settings(careId);
    if (!timezone || !settings) throw new Error(`clinic ${careId} has no time zone or website settings`);

    const today = clinicLocalTime(now, timezone);
    if (date < today.date || (date === today.date && time <= today.time)) {
      throw invalid(`appointment_date and appointment_time are in the past (clinic time ${timezone}: ${today.date} ${today.time})`);
    }
    if (date > addDays(today.date, LIMITS.bookingHorizonDays)) {
      throw invalid(`appointment_date must be within ${LIMITS.bookingHorizonDays} days from today`);
    }

    let durationMinutes: number | undefined;
    if (treatment_id != null) {
      const treatment = await new TreatmentStore(trx).findActive(careId, treatment_id);
      if (!treatment) throw invalid('treatment_id does not name an active treatment of this clinic');
      durationMinutes = treatment.duration_minutes;
    }
    if (doctor_id != null && !(await new DentistStore(trx).exists(careId, doctor_id))) {
      throw invalid('doctor_id does not name a dentist of this clinic');
    }

    const hours = checkOpeningHours(settings.opening_hours, date, time, durationMinutes);
    if (!hours.open) throw invalid(hours.reason);

    if (doctor_id != null && (await new AppointmentStore(trx).dentistSlotTaken(doctor_id, date, time))) {
      throw slotUnavailable();
    }
  }
}

const invalid = (reason: string) => new ApiError('validation_error', `Invalid request: ${reason}`);

const slotUnavailable = () =>
  new ApiError('slot_unavailable', 'This dentist is already booked at that date and time; choose another time');

function isUniqueViolation(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === 'SQLITE_CONSTRAINT_UNIQUE';
}

/** The same JSON with keys in any order or other spacing hashes the same. */
function hashRequest(body: unknown): string {
  return createHash('sha256').update(canonicalJson(body)).digest('base64url');
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
