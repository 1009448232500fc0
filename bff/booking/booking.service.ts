import { LRUCache } from 'lru-cache';
import {
  BookAppointmentResponse,
  type BookAppointmentRequest,
  type DentistListResponse,
  type TreatmentListResponse,
  type WebsiteResponse,
} from '../../contract/index.js';
import { ApiError, idempotencyKeyReused } from '../../contract/errors.js';
import { appointmentEnd } from '../../contract/rules/appointment-interval.js';
import type { BookingRules } from '../../contract/rules/booking-rules.js';
import { UNKNOWN_DENTIST_SENTENCE, UNKNOWN_TREATMENT_SENTENCE } from '../../contract/rules/booking-choice-words.js';
import { checkBookingWindow } from '../../contract/rules/booking-window.js';
import { clinicNow } from '../../contract/rules/clinic-now.js';
import { SLOT_STEP_MINUTES } from '../../contract/rules/slots.js';
import { BOOKING_PATH, BookingRefused } from '../../contract/bff.js';
import type { Clock } from '../../platform/clock.js';
import type { UpstreamAnswer, UpstreamClient } from '../upstream/upstream-client.js';
import { BookingOutcomeUnknown, UpstreamUnavailable } from '../upstream/errors.js';
import type { TakenInterval, TakenSlots } from '../availability/taken-slots.js';
import { appointmentMinutes } from '../availability/open-starts.js';
import { DENTISTS, TREATMENTS, WEBSITE } from '../content/resources.js';
import type { ContentResource } from '../content/resources.js';
import type { BookingFacts } from './booking-facts.js';
import { refusedForTime, startRefusalOf } from './booking-refused.js';
import type { DentistMemory } from './dentist-memory.js';
import { bodyFingerprint, type KeyBindings } from './key-bindings.js';
import { dentistKey, siteKey } from './upstream-keys.js';
import { msUntilForgotten } from './forget-after-visit.js';
import { entriesAtMost } from '../../platform/entries-at-most.js';

/** A booking as the browser sent it. */
export interface BookingRequest {
  /** The body upstream gets: the browser's own, without the honeypot. */
  body: Record<string, unknown>;
  /** The same body, parsed: what the rules read. */
  booking: BookAppointmentRequest;
  /** The browser's Idempotency-Key, when it sent one. */
  idempotencyKey: string | undefined;
}

/** A booking's patient key (its Idempotency-Key) and the fingerprint of its body under that key (bodyFingerprint). */
interface PatientKey {
  key: string;
  fingerprint: string;
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
  /** The clinic's notice, horizon and default length (BOOKING_*), as this BFF is told them. */
  rules: BookingRules;
  /** What the BFF learns about taken slots from bookings and 409s. */
  taken: TakenSlots;
  /** The dentist each patient key of an "any dentist" booking tried: per process, or shared through Redis. */
  dentistMemory: DentistMemory;
  /**
   * The body each patient key was first sent upstream with, and whether it
   * booked or may have (an unknown outcome): another body under the key is
   * refused 422, and only a re-send of the accepted body is sent on once time
   * has moved it inside the notice, so that upstream replays it. Per process,
   * or shared through Redis.
   */
  keyBindings: KeyBindings;
  /** What this site's keys carry upstream (siteKey): its id, or undefined for the default site, whose keys go as they came. */
  keyScope: string | undefined;
  clock: Clock;
  /** How long a booking waits for upstream (BOOKING_TIMEOUT_MS). */
  bookingTimeoutMs: number;
}

/** Bookings whose dentist and treatment a status lookup can name, at most (each until a week after it: msUntilForgotten). */
const BOOKINGS_REMEMBERED = 50_000;

/**
 * The BFF's booking rules, apart from HTTP: the checks it can make itself
 * before anything goes upstream (refusals with a reason code), "any dentist"
 * (a booking without a dentist goes to the dentist free for the whole
 * appointment with the fewest bookings known that day, a re-send first to
 * the dentist its key tried), the Idempotency-Key of each try (this site's,
 * siteKey; one per dentist tried, dentistKey), each patient key bound to the
 * body first sent under it (keyBindings), and what is learnt from each answer (a booking's whole interval is taken;
 * a start refused 409 is taken). A booking waits for
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
      ...entriesAtMost(BOOKINGS_REMEMBERED),
      ttlResolution: 0,
      perf: { now: () => options.clock.now().getTime() },
    });
  }

  /**
   * Books `request` upstream, unless a check the BFF can make refuses it
   * first. `sending` is told before each call upstream, and whether it
   * carries an Idempotency-Key: from then on the booking may be stored.
   * Throws BookingRefused (nothing sent), ApiError idempotency_key_reused
   * when its key was sent with another body, ApiError slot_unavailable when
   * every dentist is taken, BookingOutcomeUnknown when a booking sent got no
   * answer in time, and UpstreamUnavailable or UpstreamBusy when upstream failed.
   */
  async book(request: BookingRequest, sending: (keyed: boolean) => void): Promise<BookingOutcome> {
    const { booking, idempotencyKey } = request;
    const patientKey = idempotencyKey === undefined ? undefined : { key: idempotencyKey, fingerprint: bodyFingerprint(idempotencyKey, booking) };
    // The booking window first, in the clinic's time (CLINIC_TIMEZONE, BOOKING_MIN_NOTICE_MINUTES,
    // BOOKING_HORIZON_DAYS): it needs nothing read, as on the reference server.
    const { clock, timeZone, rules } = this.options;
    const window = checkBookingWindow(clinicNow(clock.now(), timeZone, rules), booking.appointment_date, booking.appointment_time);
    if (!window.within && !(window.reason === 'inside_notice' && (await this.acceptedBefore(patientKey)))) throw refusedForTime(window);
    const facts = await this.knownFacts(booking);
    const refusal = refusalOf(booking, facts);
    if (refusal) throw refusal;
    // Bound once it would go upstream: a booking the BFF refuses itself binds nothing, as the server remembers no
    // request refused before its rules. After the booking window, so another body under an accepted key is inside_notice.
    if (patientKey) await this.bindKey(patientKey);
    const { appointment_date: date, appointment_time: time } = booking;
    const treatmentMinutes = facts.treatments?.data.find((t) => t.treatment_id === booking.treatment_id)?.duration_minutes;
    const held: TakenInterval = { start: time, end: appointmentEnd(time, appointmentMinutes(treatmentMinutes, this.options.rules)) };
    if (booking.doctor_id == null) {
      // Without the dentist list (upstream failing to answer it) the booking goes as the patient sent it.
      const dentists = facts.dentists?.data.map((dentist) => dentist.doctor_id) ?? [];
      if (dentists.length > 0) return this.bookAnyDentist(request, patientKey, dentists, held, sending);
    }
    const requested = booking.doctor_id ?? null;
    const answer = await this.sendRemembered(request.body, patientKey, sending);
    if (requested !== null && answer.status === 200) await this.options.taken.markTaken(requested, date, held);
    if (requested !== null && answer.status === 409) await this.options.taken.markTaken(requested, date, startOnly(time));
    return this.outcomeOf(answer, requested, booking);
  }

  /**
   * True when upstream accepted this very body under this patient key before,
   * or may have: only then is it a re-send, which upstream replays. Another
   * body under an accepted key is a new booking, and meets the notice as any.
   */
  private async acceptedBefore(patientKey: PatientKey | undefined): Promise<boolean> {
    if (patientKey === undefined) return false;
    const binding = await this.options.keyBindings.bindingOf(patientKey.key);
    return binding !== undefined && binding.accepted && binding.fingerprint === patientKey.fingerprint;
  }

  /**
   * Binds the patient key to this body, the first time it goes upstream;
   * refuses another body under a key already bound, as the server refuses it
   * (422). The BFF must say it itself: "any dentist" sends each try under a
   * derived key, so upstream never sees a key first used for a named dentist
   * reused, nor an "any dentist" key reused for another day or patient.
   */
  private async bindKey({ key, fingerprint }: PatientKey): Promise<void> {
    const bound = await this.options.keyBindings.bind(key, fingerprint);
    if (bound.fingerprint !== fingerprint) throw idempotencyKeyReused();
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
   * "Any dentist": among the dentists free for the whole appointment as best
   * known, the one with the fewest bookings known that day first (ties in the
   * clinic's list order), then the next after a 409, until one books; a
   * re-send (through any BFF of the clinic) goes first to the dentist its key
   * booked, or may have, taken or not.
   */
  private async bookAnyDentist(
    request: BookingRequest,
    patientKey: PatientKey | undefined,
    dentists: number[],
    held: TakenInterval,
    sending: (keyed: boolean) => void,
  ): Promise<BookingOutcome> {
    const { booking } = request;
    const { appointment_date: date, appointment_time: time } = booking;
    const { taken, dentistMemory } = this.options;
    const retry = patientKey === undefined ? undefined : await dentistMemory.dentistOf(patientKey.key);
    const known = await taken.takenOn(date, dentists);
    // Array.prototype.sort is stable: dentists with as many bookings keep the list's order.
    const leastBooked = dentists.filter((id) => !known.overlaps(id, held.start, held.end)).sort((a, b) => known.count(a) - known.count(b));
    const order = retry !== undefined && dentists.includes(retry) ? [retry, ...leastBooked.filter((id) => id !== retry)] : leastBooked;
    for (const doctorId of order) {
      const key = patientKey && dentistKey(this.upstreamKeyOf(patientKey), doctorId);
      const answer = await this.send({ ...request.body, doctor_id: doctorId }, key, sending).catch(async (error: unknown) => {
        if (error instanceof BookingOutcomeUnknown && patientKey) await this.rememberKey(patientKey, doctorId);
        throw error;
      });
      if (answer.status === 409) {
        await taken.markTaken(doctorId, date, startOnly(time));
        continue;
      }
      if (answer.status !== 200) return { booked: false, refusal: answer };
      await taken.markTaken(doctorId, date, held);
      if (patientKey) await this.rememberKey(patientKey, doctorId);
      return this.outcomeOf(answer, doctorId, booking);
    }
    throw new ApiError('slot_unavailable', 'Every dentist is booked at that time; please choose another time');
  }

  /** The patient key of a booking that booked, or may have, with the dentist tried: for re-sends ("any dentist", notice). */
  private async rememberKey(patientKey: PatientKey, doctorId: number): Promise<void> {
    await this.options.dentistMemory.remember(patientKey.key, doctorId);
    await this.options.keyBindings.accept(patientKey.key, patientKey.fingerprint);
  }

  /** The Idempotency-Key a booking goes upstream under: the patient's, carrying this site's id (siteKey). */
  private upstreamKeyOf({ key }: PatientKey): string {
    return siteKey(key, this.options.keyScope);
  }

  /** send, remembering a keyed booking as the patient sent it that booked, or may have, for its re-sends. */
  private async sendRemembered(body: Record<string, unknown>, patientKey: PatientKey | undefined, sending: (keyed: boolean) => void): Promise<UpstreamAnswer> {
    const remember = async () => {
      if (patientKey) await this.options.keyBindings.accept(patientKey.key, patientKey.fingerprint);
    };
    const answer = await this.send(body, patientKey && this.upstreamKeyOf(patientKey), sending).catch(async (error: unknown) => {
      if (error instanceof BookingOutcomeUnknown) await remember();
      throw error;
    });
    if (answer.status === 200) await remember();
    return answer;
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
 * the opening hours or a treatment ending after closing; then a start off the
 * BFF's 15-minute grid, which only the BFF has. In the reference
 * server's order (server/appointments/booking.service.ts), so a booking that
 * breaks two rules is refused for the same one; undefined when none applies,
 * and the clinic system decides the rest.
 */
function refusalOf(booking: BookAppointmentRequest, { website, treatments, dentists }: KnownFacts): BookingRefused | undefined {
  const { appointment_date: date, appointment_time: time, doctor_id, treatment_id } = booking;
  let treatmentMinutes: number | undefined;
  if (treatment_id != null && treatments) {
    const treatment = treatments.data.find((t) => t.treatment_id === treatment_id);
    if (!treatment) return new BookingRefused('unknown_treatment', UNKNOWN_TREATMENT_SENTENCE);
    treatmentMinutes = treatment.duration_minutes;
  }
  if (doctor_id != null && dentists && !dentists.data.some((d) => d.doctor_id === doctor_id)) {
    return new BookingRefused('unknown_dentist', UNKNOWN_DENTIST_SENTENCE);
  }
  const start = startRefusalOf(date, time, website?.site.opening_hours, treatmentMinutes);
  if (start) return new BookingRefused(start.reason, start.sentence);
  return undefined;
}

/**
 * What an upstream 409 teaches: the asked start is taken (for one grid step,
 * which is all a start on the grid can meet), not the whole appointment, since
 * the 409 does not say which moment of it is held.
 */
const startOnly = (time: string): TakenInterval => ({ start: time, end: appointmentEnd(time, SLOT_STEP_MINUTES) });
