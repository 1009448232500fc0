import { createHash } from 'node:crypto';
import type { BookAppointmentRequest, BookAppointmentResponse, ErrorBody } from '../../contract/index.js';
import { ApiError, idempotencyKeyReused } from '../../contract/index.js';
import { appointmentEnd, bookingTimeSentence, checkBookingWindow, checkOpeningHours, ClinicNowReadings, UNKNOWN_DENTIST_SENTENCE, UNKNOWN_TREATMENT_SENTENCE } from '../../contract/rules/index.js';
import { canonicalJson } from '../../platform/canonical-json.js';
import type { Clock } from '../../platform/clock.js';
import type { Db } from '../db/database.js';
import type { GroupCommitter } from '../db/group-commit.js';
import { isUniqueViolation } from '../db/unique-violation.js';
import { toBookingRules } from '../clinics/booking-rules.js';
import type { ClinicStore } from '../clinics/clinic.store.js';
import type { DentistStore } from '../dentists/dentist.store.js';
import type { TreatmentStore } from '../treatments/treatment.store.js';
import type { WebsiteStore } from '../website/website.store.js';
import { dentistDayLockOrder, type AppointmentStore, type Overlap } from './appointment.store.js';
import type { IdempotencyStore } from './idempotency.store.js';

/**
 * The stores a booking reads and writes, and the same bound to its
 * transaction (`within`): what the app's Stores gives (server/stores.ts),
 * named here so that the rules depend on what they use, not on every store.
 */
export interface BookingStores {
  within(trx: Db): BookingStores;
  readonly clinics: ClinicStore;
  readonly websites: WebsiteStore;
  readonly treatments: TreatmentStore;
  readonly dentists: DentistStore;
  readonly appointments: AppointmentStore;
  readonly idempotency: IdempotencyStore;
}

export interface BookingAnswer {
  status: number;
  body: BookAppointmentResponse | ErrorBody;
  /** True when this is the stored first answer to a repeated Idempotency-Key. */
  replayed: boolean;
}

/**
 * The booking rules of POST /appointments/book (spec 4.1) and the decisions
 * where the spec is silent (docs/spec-silence.md).
 */
export class BookingService {
  /** The clinics' "now", kept for the rest of each second: this service's own. */
  readonly #clinicNow = new ClinicNowReadings();

  constructor(
    private readonly stores: BookingStores,
    private readonly commits: GroupCommitter,
    private readonly clock: Clock,
  ) {}

  /**
   * Books in one transaction (shared with bookings that arrive together, see
   * GroupCommitter): the idempotency check, every rule, the insert and the
   * stored answer commit together or not at all. Concurrent bookings of one
   * dentist's time, in this process or another, are decided by the database:
   * the overlap check and the insert run as one step (SQLite's single writer;
   * a lock on the dentist's day on PostgreSQL, see AppointmentStore.findOverlap),
   * and a concurrent Idempotency-Key waits for the first (the same single
   * writer; a lock on PostgreSQL). The answer is given only once committed.
   */
  async book(careId: number, booking: BookAppointmentRequest, idempotencyKey: string | undefined): Promise<BookingAnswer> {
    const now = this.clock.now();
    const requestHash = idempotencyKey ? hashBooking(booking) : undefined;
    return this.commits.run(async (trx) => {
      const stores = this.stores.within(trx);
      if (idempotencyKey && requestHash) {
        const earlier = await stores.idempotency.find(careId, idempotencyKey, now);
        if (earlier && earlier.requestHash !== requestHash) {
          throw idempotencyKeyReused();
        }
        if (earlier) return { status: earlier.status, body: earlier.body as BookingAnswer['body'], replayed: true };
      }

      const answer = await this.decide(stores, careId, booking, now);
      if (idempotencyKey && requestHash) await stores.idempotency.save(careId, idempotencyKey, { requestHash, ...answer }, now);
      return { ...answer, replayed: false };
    }, dentistDayLockOrder(booking.doctor_id, booking.appointment_date));
  }

  private async decide(
    stores: BookingStores,
    careId: number,
    booking: BookAppointmentRequest,
    now: Date,
  ): Promise<Omit<BookingAnswer, 'replayed'>> {
    try {
      const end = await this.checkRules(stores, careId, booking, now);
      const appointmentId = await stores.appointments.insert(careId, booking, end, 'Scheduled', now);
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

  /**
   * Every booking rule, in the order its refusal is most useful to read;
   * answers when the appointment ends, for it holds its dentist until then.
   */
  private async checkRules(stores: BookingStores, careId: number, booking: BookAppointmentRequest, now: Date): Promise<string> {
    const { appointment_date: date, appointment_time: time, doctor_id, treatment_id } = booking;
    const timezone = await stores.clinics.timezone(careId);
    const stored = await stores.clinics.bookingRules(careId);
    const settings = await stores.websites.settings(careId);
    if (!timezone || !stored || !settings) throw new Error(`clinic ${careId} has no time zone, booking rules or website settings`);
    const rules = toBookingRules(stored);

    // The rules of time (the booking window, the opening hours) are contract/rules', so the BFF refuses alike.
    const window = checkBookingWindow(this.#clinicNow.at(now, timezone, rules), date, time);
    if (!window.within) throw invalid(bookingTimeSentence(window));

    const treatmentMinutes = await this.checkNamed(stores, careId, treatment_id, doctor_id);

    // Only a treatment's length must end by closing: without one, the clinic's default length is a
    // placeholder, there to hold the dentist, and the clinic shortens or moves such an appointment itself.
    const hours = checkOpeningHours(settings.opening_hours, date, time, treatmentMinutes);
    if (!hours.open) throw invalid(bookingTimeSentence(hours));

    // An appointment without a dentist holds nobody's time (docs/spec-silence.md).
    const end = appointmentEnd(time, treatmentMinutes ?? rules.defaultDurationMinutes);
    if (doctor_id != null) {
      const overlap = await stores.appointments.findOverlap(doctor_id, date, time, end);
      if (overlap) throw slotUnavailable(overlap);
    }
    return end;
  }

  /**
   * Refuses a treatment that is not an active one of the clinic, then a
   * dentist that is not the clinic's; answers the treatment's length. A
   * booking naming both has them read in one query.
   */
  private async checkNamed(
    stores: BookingStores,
    careId: number,
    treatmentId: number | null | undefined,
    doctorId: number | null | undefined,
  ): Promise<number | undefined> {
    const { treatmentMinutes, dentistFound } =
      treatmentId != null && doctorId != null
        ? await stores.appointments.treatmentAndDentist(careId, treatmentId, doctorId)
        : {
            treatmentMinutes: treatmentId == null ? undefined : (await stores.treatments.findActive(careId, treatmentId))?.duration_minutes,
            dentistFound: doctorId == null || (await stores.dentists.exists(careId, doctorId)),
          };
    if (treatmentId != null && treatmentMinutes === undefined) throw invalid(UNKNOWN_TREATMENT_SENTENCE);
    if (!dentistFound) throw invalid(UNKNOWN_DENTIST_SENTENCE);
    return treatmentMinutes;
  }
}

const invalid = (reason: string) => new ApiError('validation_error', `Invalid request: ${reason}`);

/**
 * 409 for a booking the dentist's time is already given to: the overlapping
 * appointment's times when known (the overlap check), or, from the unique
 * index behind it, the same start.
 */
const slotUnavailable = (overlap?: Overlap) =>
  new ApiError(
    'slot_unavailable',
    overlap
      ? `This dentist is already booked from ${overlap.appointment_time} to ${overlap.end_time} that day; choose another time`
      : 'This dentist is already booked at that date and time; choose another time',
  );

/**
 * The fingerprint of a booking for Idempotency-Key, from the parsed booking:
 * the same booking sent with its keys in another order, other spacing or
 * untrimmed text hashes the same.
 */
function hashBooking(booking: BookAppointmentRequest): string {
  return createHash('sha256').update(canonicalJson(booking)).digest('base64url');
}
