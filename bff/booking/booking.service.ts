import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { BookAppointmentResponse, type BookAppointmentRequest } from '../../contract/index.js';
import { ApiError } from '../../contract/errors.js';
import { LIMITS } from '../../contract/rules/limits.js';
import { BOOKING_PATH } from '../../contract/bff.js';
import type { Clock } from '../../platform/clock.js';
import type { UpstreamAnswer, UpstreamClient } from '../upstream/upstream-client.js';
import { BookingOutcomeUnknown, UpstreamUnavailable } from '../upstream/errors.js';
import type { ClinicFacts } from '../availability/clinic-facts.js';
import type { TakenSlots } from '../availability/taken-slots.js';
import type { DentistMemory } from './dentist-memory.js';

/** A booking as the browser sent it. */
export interface BookingRequest {
  /** The body upstream gets: the browser's own, without the honeypot. */
  body: Record<string, unknown>;
  /** The same body, parsed: what the rules read. */
  booking: BookAppointmentRequest;
  /** The browser's Idempotency-Key, when it sent one. */
  idempotencyKey: string | undefined;
}

/** What upstream made of a booking: booked (with the dentist booked), or refused with an answer to relay. */
export type BookingOutcome =
  | { booked: true; appointmentId: number; message: string; doctorId: number | null; replayed: boolean }
  | { booked: false; refusal: UpstreamAnswer };

/** The dentist and treatment of a booking this BFF made (the spec's status view has neither). */
export interface BookedDetails {
  doctor_id: number | null;
  treatment_id: number | null;
}

export interface BookingServiceOptions {
  upstream: UpstreamClient;
  /** The clinic's dentists, for "any dentist". */
  facts: ClinicFacts;
  /** What the BFF learns about taken slots from bookings and 409s. */
  taken: TakenSlots;
  /** The dentist each patient key of an "any dentist" booking tried: per process, or shared through Redis. */
  dentistMemory: DentistMemory;
  clock: Clock;
  /** How long a booking waits for upstream (BOOKING_TIMEOUT_MS). */
  bookingTimeoutMs: number;
}

/** Bookings whose dentist and treatment a status lookup can name: the booking horizon, and a bound. */
const BOOKING_MEMORY_TTL_MS = (LIMITS.bookingHorizonDays + 1) * 24 * 3600_000;
const BOOKINGS_REMEMBERED = 50_000;

/**
 * The BFF's booking rules, apart from HTTP: "any dentist" (a booking without
 * a dentist goes to the first of the clinic's dentists free then, a re-send
 * first to the dentist its key tried), the Idempotency-Key of each try
 * (dentistKey), and what is learnt from each answer (a slot booked or refused
 * 409 is taken). A booking waits for upstream up to `bookingTimeoutMs`,
 * longer than reads: answering "try again" while upstream is still booking
 * is what makes a patient book twice.
 */
export class BookingService {
  /**
   * The dentist and treatment of each booking this BFF made, for its status
   * lookups. Best known: bounded, in memory, for as long as a booking can lie ahead.
   */
  private readonly bookedDetails: LRUCache<number, BookedDetails>;

  constructor(private readonly options: BookingServiceOptions) {
    // ttlResolution 0: lru-cache would otherwise reuse one reading of the clock for 1 ms, across a clock moved by hand.
    this.bookedDetails = new LRUCache<number, BookedDetails>({
      max: BOOKINGS_REMEMBERED,
      ttl: BOOKING_MEMORY_TTL_MS,
      ttlResolution: 0,
      perf: { now: () => options.clock.now().getTime() },
    });
  }

  /**
   * Books `request` upstream. `sending` is told before each call upstream,
   * and whether it carries an Idempotency-Key: from then on the booking may be
   * stored. Throws ApiError slot_unavailable when every dentist is taken,
   * BookingOutcomeUnknown when a booking sent got no answer in time, and
   * UpstreamUnavailable or UpstreamBusy when upstream failed.
   */
  async book(request: BookingRequest, sending: (keyed: boolean) => void): Promise<BookingOutcome> {
    const { booking } = request;
    if (booking.doctor_id == null) {
      // Without the dentist list (upstream failing to answer it) the booking goes as the patient sent it.
      const dentists = await this.options.facts.dentistIdsForBooking().catch((): number[] => []);
      if (dentists.length > 0) return this.bookAnyDentist(request, dentists, sending);
    }
    const { appointment_date: date, appointment_time: time } = booking;
    const requested = booking.doctor_id ?? null;
    const answer = await this.send(request.body, request.idempotencyKey, sending);
    if (requested !== null && (answer.status === 200 || answer.status === 409)) await this.options.taken.markTaken(requested, date, time);
    return this.outcomeOf(answer, requested, booking);
  }

  /** The dentist and treatment of a booking this BFF made, while it remembers them. */
  detailsOf(appointmentId: number): BookedDetails | undefined {
    return this.bookedDetails.get(appointmentId);
  }

  /**
   * "Any dentist": each of `dentists` in turn, skipping those known taken
   * then, until one books; a re-send (through any BFF of the clinic) goes
   * first to the dentist its key booked, or may have, taken or not.
   */
  private async bookAnyDentist(request: BookingRequest, dentists: number[], sending: (keyed: boolean) => void): Promise<BookingOutcome> {
    const { booking, idempotencyKey } = request;
    const { appointment_date: date, appointment_time: time } = booking;
    const { taken, dentistMemory } = this.options;
    const retry = idempotencyKey === undefined ? undefined : await dentistMemory.dentistOf(idempotencyKey);
    const order = retry !== undefined && dentists.includes(retry) ? [retry, ...dentists.filter((id) => id !== retry)] : dentists;
    for (const doctorId of order) {
      if (doctorId !== retry && (await taken.isTaken(doctorId, date, time))) continue;
      const key = idempotencyKey && dentistKey(idempotencyKey, doctorId);
      const answer = await this.send({ ...request.body, doctor_id: doctorId }, key, sending).catch(async (error: unknown) => {
        if (error instanceof BookingOutcomeUnknown && idempotencyKey) await dentistMemory.remember(idempotencyKey, doctorId);
        throw error;
      });
      if (answer.status === 409) {
        await taken.markTaken(doctorId, date, time);
        continue;
      }
      if (answer.status !== 200) return { booked: false, refusal: answer };
      await taken.markTaken(doctorId, date, time);
      if (idempotencyKey) await dentistMemory.remember(idempotencyKey, doctorId);
      return this.outcomeOf(answer, doctorId, booking);
    }
    throw new ApiError('slot_unavailable', 'Every dentist is booked at that time; please choose another time');
  }

  private send(body: Record<string, unknown>, idempotencyKey: string | undefined, sending: (keyed: boolean) => void): Promise<UpstreamAnswer> {
    sending(idempotencyKey !== undefined);
    return this.options.upstream
      .call({
        method: 'POST',
        path: BOOKING_PATH,
        body,
        headers: idempotencyKey ? { 'idempotency-key': idempotencyKey } : {},
        timeoutMs: this.options.bookingTimeoutMs,
      })
      .catch((error: unknown) => {
        // Sent but never answered: upstream may have booked it. Say so, rather than "try again".
        throw error instanceof UpstreamUnavailable && error.mayHaveArrived ? new BookingOutcomeUnknown() : error;
      });
  }

  /** A booked answer read against the contract, its details remembered; any other status, a refusal to relay. */
  private outcomeOf(answer: UpstreamAnswer, doctorId: number | null, booking: BookAppointmentRequest): BookingOutcome {
    if (answer.status !== 200) return { booked: false, refusal: answer };
    const booked = BookAppointmentResponse.safeParse(answer.body);
    if (!booked.success) throw new UpstreamUnavailable('server_error', 'upstream booking answer did not match the contract');
    const { appointment_id } = booked.data.data;
    this.bookedDetails.set(appointment_id, { doctor_id: doctorId, treatment_id: booking.treatment_id ?? null });
    return { booked: true, appointmentId: appointment_id, message: booked.data.message, doctorId, replayed: answer.replayed === true };
  }
}

/**
 * Each dentist tried for one "any dentist" booking gets its own
 * Idempotency-Key derived from the patient's, so a re-send replays each try
 * (a 409 or the booking) instead of booking again. A key too long to carry
 * the suffix within the header's limit is replaced by its SHA-256.
 */
export function dentistKey(patientKey: string, doctorId: number): string {
  const suffix = `:doctor-${doctorId}`;
  const base = patientKey.length + suffix.length <= LIMITS.idempotencyKey ? patientKey : createHash('sha256').update(patientKey).digest('base64url');
  return `${base}${suffix}`;
}
