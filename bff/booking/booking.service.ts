import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import {
  BookAppointmentResponse,
  type BookAppointmentRequest,
  type DentistListResponse,
  type TreatmentListResponse,
  type WebsiteResponse,
} from '../../contract/index.js';
import { ApiError } from '../../contract/errors.js';
import { LIMITS } from '../../contract/rules/limits.js';
import { clinicNow } from '../../contract/rules/clinic-now.js';
import { checkOpeningHours } from '../../contract/rules/opening-hours.js';
import { BOOKING_PATH } from '../../contract/bff.js';
import type { Clock } from '../../platform/clock.js';
import type { UpstreamAnswer, UpstreamClient } from '../upstream/upstream-client.js';
import { BookingOutcomeUnknown, UpstreamUnavailable } from '../upstream/errors.js';
import type { TakenSlots } from '../availability/taken-slots.js';
import { DENTISTS, TREATMENTS, WEBSITE } from '../content/resources.js';
import type { ContentResource } from '../content/resources.js';
import type { BookingFacts } from './booking-facts.js';
import { BookingRefused, outsideOpeningHours } from './booking-refused.js';
import type { DentistMemory } from './dentist-memory.js';
import { msUntilForgotten } from './forget-after-visit.js';

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

/** What a booking is checked against before it goes upstream: each undefined when it cannot be read (nor checked, then). */
interface KnownFacts {
  website?: WebsiteResponse;
  treatments?: TreatmentListResponse;
  dentists?: DentistListResponse;
}

export interface BookingServiceOptions {
  upstream: UpstreamClient;
  /** The clinic's opening hours, treatments and dentists, as bookings read them. */
  facts: BookingFacts;
  /** The clinic's IANA time zone (CLINIC_TIMEZONE): what "in the past" is read in. */
  timeZone: string;
  /** What the BFF learns about taken slots from bookings and 409s. */
  taken: TakenSlots;
  /** The dentist each patient key of an "any dentist" booking tried: per process, or shared through Redis. */
  dentistMemory: DentistMemory;
  clock: Clock;
  /** How long a booking waits for upstream (BOOKING_TIMEOUT_MS). */
  bookingTimeoutMs: number;
}

/** Bookings whose dentist and treatment a status lookup can name, at most (each until a week after it: msUntilForgotten). */
const BOOKINGS_REMEMBERED = 50_000;

/**
 * The BFF's booking rules, apart from HTTP: the checks it can make itself
 * before anything goes upstream (refusals with a reason code), "any dentist"
 * (a booking without a dentist goes to the first of the clinic's dentists
 * free then, a re-send first to the dentist its key tried), the
 * Idempotency-Key of each try (dentistKey), and what is learnt from each
 * answer (a slot booked or refused 409 is taken). A booking waits for
 * upstream up to `bookingTimeoutMs`, longer than reads: answering "try again"
 * while upstream is still booking is what makes a patient book twice.
 */
export class BookingService {
  /**
   * The dentist and treatment of each booking this BFF made, for its status
   * lookups. Best known: bounded, in memory, until a week after the appointment.
   */
  private readonly bookedDetails: LRUCache<number, BookedDetails>;

  constructor(private readonly options: BookingServiceOptions) {
    // ttlResolution 0: lru-cache would otherwise reuse one reading of the clock for 1 ms, across a clock moved by hand.
    this.bookedDetails = new LRUCache<number, BookedDetails>({
      max: BOOKINGS_REMEMBERED,
      ttlResolution: 0,
      perf: { now: () => options.clock.now().getTime() },
    });
  }

  /**
   * Books `request` upstream, unless a check the BFF can make refuses it
   * first. `sending` is told before each call upstream, and whether it
   * carries an Idempotency-Key: from then on the booking may be stored.
   * Throws BookingRefused (nothing sent), ApiError slot_unavailable when every
   * dentist is taken, BookingOutcomeUnknown when a booking sent got no answer
   * in time, and UpstreamUnavailable or UpstreamBusy when upstream failed.
   */
  async book(request: BookingRequest, sending: (keyed: boolean) => void): Promise<BookingOutcome> {
    const { booking } = request;
    // The rules of time first: they need nothing read, as on the reference server.
    const untimely = this.refusalByTime(booking);
    if (untimely) throw untimely;
    const facts = await this.knownFacts(booking);
    const refusal = refusalOf(booking, facts);
    if (refusal) throw refusal;
    if (booking.doctor_id == null) {
      // Without the dentist list (upstream failing to answer it) the booking goes as the patient sent it.
      const dentists = facts.dentists?.data.map((dentist) => dentist.doctor_id) ?? [];
      if (dentists.length > 0) return this.bookAnyDentist(request, dentists, sending);
    }
    const { appointment_date: date, appointment_time: time } = booking;
    const requested = booking.doctor_id ?? null;
    const answer = await this.send(request.body, request.idempotencyKey, sending);
    if (requested !== null && (answer.status === 200 || answer.status === 409)) await this.options.taken.markTaken(requested, date, time);
    return this.outcomeOf(answer, requested, booking);
  }

  /**
   * The rules of time, in the clinic's time (CLINIC_TIMEZONE), as the
   * reference server reads them: a start that has passed (one at this very
   * minute too) is refused.
   */
  private refusalByTime({ appointment_date: date, appointment_time: time }: BookAppointmentRequest): BookingRefused | undefined {
    const { timeZone, clock } = this.options;
    const now = clinicNow(clock.now(), timeZone);
    if (date < now.date || (date === now.date && time <= now.time)) {
      return new BookingRefused('in_past', `appointment_date and appointment_time are in the past (clinic time ${timeZone}: ${now.date} ${now.time})`);
    }
    // Issue 22: the notice (now.earliest, 'inside_notice') and then the horizon (now.lastBookableDate,
    // 'beyond_horizon') go here, in the reference server's order, from the clinic's booking rules.
    return undefined;
  }

  /** What the booking's checks read, each in parallel; what cannot be read (upstream down) is not checked. */
  private async knownFacts(booking: BookAppointmentRequest): Promise<KnownFacts> {
    const known = <T>(resource: ContentResource<T>) => this.options.facts.current(resource).catch(() => undefined);
    const [website, treatments, dentists] = await Promise.all([
      known(WEBSITE),
      booking.treatment_id == null ? undefined : known(TREATMENTS),
      known(DENTISTS),
    ]);
    return { website, treatments, dentists };
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
    const ttl = msUntilForgotten(booking.appointment_date, booking.appointment_time, this.options.timeZone, this.options.clock.now());
    if (ttl > 0) this.bookedDetails.set(appointment_id, { doctor_id: doctorId, treatment_id: booking.treatment_id ?? null }, { ttl });
    return { booked: true, appointmentId: appointment_id, message: booked.data.message, doctorId, replayed: answer.replayed === true };
  }
}

/**
 * Why the BFF refuses a booking before it goes upstream, from the clinic's
 * content it could read: an unknown treatment or dentist, a start outside
 * the opening hours or a treatment ending after closing. In the reference
 * server's order (server/appointments/booking.service.ts), so a booking that
 * breaks two rules is refused for the same one; undefined when none applies,
 * and the clinic system decides the rest.
 */
function refusalOf(booking: BookAppointmentRequest, { website, treatments, dentists }: KnownFacts): BookingRefused | undefined {
  const { appointment_date: date, appointment_time: time, doctor_id, treatment_id } = booking;
  let treatmentMinutes: number | undefined;
  if (treatment_id != null && treatments) {
    const treatment = treatments.data.find((t) => t.treatment_id === treatment_id);
    if (!treatment) return new BookingRefused('unknown_treatment', 'treatment_id does not name an active treatment of this clinic');
    treatmentMinutes = treatment.duration_minutes;
  }
  if (doctor_id != null && dentists && !dentists.data.some((d) => d.doctor_id === doctor_id)) {
    return new BookingRefused('unknown_dentist', 'doctor_id does not name a dentist of this clinic');
  }
  if (website) {
    // Only a treatment's length must end by closing, as on the reference server.
    const hours = checkOpeningHours(website.site.opening_hours, date, time, treatmentMinutes);
    if (!hours.open) return outsideOpeningHours(hours);
  }
  // Issue 22: a start off the booking grid ('off_grid', every SLOT_STEP_MINUTES) is refused here, last.
  return undefined;
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
