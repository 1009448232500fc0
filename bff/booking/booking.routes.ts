import { createHash } from 'node:crypto';
import type { ErrorRequestHandler, Request, RequestHandler, Response } from 'express';
import { LRUCache } from 'lru-cache';
import { z } from 'zod';
import {
  AppointmentStatusResponse,
  BookAppointmentResponse,
  ErrorBody,
  type ErrorCode,
} from '../../contract/index.js';
import { ApiError, notFound } from '../../contract/errors.js';
import { LIMITS } from '../../contract/rules/limits.js';
import { RetryAfterHeader } from '../../contract/headers.js';
import { readIdempotencyKey } from '../../platform/idempotency-key.js';
import { jsonBody } from '../../platform/json-body.js';
import { operation, type AnyOperation } from '../../platform/operation.js';
import type { Clock } from '../../platform/clock.js';
import type { GivingBackRateLimit } from '../../platform/rate-limits.js';
import type { UpstreamAnswer, UpstreamClient } from '../upstream/upstream-client.js';
import { BookingOutcomeUnknown, UpstreamUnavailable } from '../upstream/errors.js';
import type { ClinicFacts } from '../availability/clinic-facts.js';
import type { TakenSlots } from '../availability/taken-slots.js';
import { createReference, readReferenceWithAny } from './booking-reference.js';
import type { DentistMemory } from './dentist-memory.js';
import { commonErrors, errorAnswer, json, NoStore, tagged } from '../http/answers.js';
import {
  BffBookingResponse,
  BffStatusResponse,
  BookingIdempotencyKey,
  BOOKING_PATH,
  BROWSER_BOOKING_MAX_BYTES,
  BrowserBookingRequest,
  HONEYPOT_FIELD,
  ReferencePathParams,
  STATUS_LOOKUP_MAX_BYTES,
  STATUS_LOOKUP_PATH,
  STATUS_PATH,
  StatusLookupRequest,
} from '../../contract/bff.js';

export interface BookingRoutesOptions {
  upstream: UpstreamClient;
  /** New references are made with this key (BOOKING_REF_SECRET). */
  referenceKey: Buffer;
  /** References are read with these too (BOOKING_REF_SECRET_PREVIOUS), so rotating the reference secret voids none. */
  previousReferenceKeys: readonly Buffer[];
  /** Bookings per client IP (BOOKING_RATE_LIMIT); the routes give a hit back only for a booking that surely booked nothing. */
  bookingRateLimit: GivingBackRateLimit;
  /** Status lookups per client IP (STATUS_RATE_LIMIT), on POST and the deprecated GET alike. */
  statusRateLimit: RequestHandler;
  bookingTimeoutMs: number;
  /** The clinic's dentists, for "any dentist". */
  facts: ClinicFacts;
  /** What the BFF learns about taken slots from bookings and 409s. */
  taken: TakenSlots;
  /** The dentist each patient key of an "any dentist" booking tried: per process, or shared through Redis. */
  dentistMemory: DentistMemory;
  clock: Clock;
}

/** When the deprecated GET status lookup was deprecated (RFC 9745 Deprecation) and when it may stop answering (RFC 8594 Sunset). */
export const STATUS_GET_DEPRECATED_AT = new Date(Date.UTC(2026, 10, 22));
export const STATUS_GET_SUNSET_AT = new Date(Date.UTC(2027, 4, 31));
const DEPRECATION_HEADERS = {
  Deprecation: `@${STATUS_GET_DEPRECATED_AT.getTime() / 1000}`,
  Sunset: STATUS_GET_SUNSET_AT.toUTCString(),
  Link: `</api${STATUS_LOOKUP_PATH}>; rel="successor-version"`,
};

/** The same headers, as the document declares them. */
const DeprecationHeaders = z.object({
  Deprecation: z.string().meta({
    description: 'RFC 9745: this operation is deprecated (since the date, as @epoch-seconds); use POST /appointments/status.',
    example: '@1795305600',
    header: { id: 'Deprecation' },
  }),
  Sunset: z.string().meta({
    description: 'RFC 8594: after this date the operation may stop answering.',
    example: STATUS_GET_SUNSET_AT.toUTCString(),
    header: { id: 'Sunset' },
  }),
  Link: z.string().meta({
    description: 'The successor operation: rel="successor-version".',
    example: `</api${STATUS_LOOKUP_PATH}>; rel="successor-version"`,
    header: { id: 'SuccessorLink' },
  }),
});

/** Bookings whose dentist and treatment a status lookup can name: the booking horizon, and a bound. */
const BOOKING_MEMORY_TTL_MS = (LIMITS.bookingHorizonDays + 1) * 24 * 3600_000;
const BOOKINGS_REMEMBERED = 50_000;

/**
 * POST /api/appointments/book, POST /api/appointments/status ({reference})
 * and the deprecated GET /api/appointments/status/:reference.
 * A booking waits for upstream up to `bookingTimeoutMs` (BOOKING_TIMEOUT_MS),
 * longer than reads: answering "try again" while upstream is still booking is
 * what makes a patient book twice.
 */
export function bookingOperations(options: BookingRoutesOptions): AnyOperation[] {
  const { upstream, referenceKey, bookingRateLimit, statusRateLimit, bookingTimeoutMs, facts, taken, dentistMemory, clock } = options;
  const readingKeys = [referenceKey, ...options.previousReferenceKeys];
  /**
   * The dentist and treatment of each booking this BFF made, for its status
   * lookups (the spec's status view has neither). Best known: bounded, in
   * memory, for as long as a booking can lie ahead.
   */
  // ttlResolution 0: lru-cache would otherwise reuse one reading of the clock for 1 ms, across a clock moved by hand.
  const bookedDetails = new LRUCache<number, { doctor_id: number | null; treatment_id: number | null }>({
    max: BOOKINGS_REMEMBERED,
    ttl: BOOKING_MEMORY_TTL_MS,
    ttlResolution: 0,
    perf: { now: () => clock.now().getTime() },
  });

  /** Bookings that went upstream (may be stored), and whether they carried an Idempotency-Key (a re-send then replays). */
  const sentUpstream = new WeakMap<Request, { keyed: boolean }>();

  const send = (req: Request, body: Record<string, unknown>, idempotencyKey: string | undefined) => {
    sentUpstream.set(req, { keyed: idempotencyKey !== undefined });
    return upstream
      .call({
        method: 'POST',
        path: BOOKING_PATH,
        body,
        headers: idempotencyKey ? { 'idempotency-key': idempotencyKey } : {},
        timeoutMs: bookingTimeoutMs,
      })
      .catch((error: unknown) => {
        // Sent but never answered: upstream may have booked it. Say so, rather than "try again".
        throw error instanceof UpstreamUnavailable && error.mayHaveArrived ? new BookingOutcomeUnknown() : error;
      });
  };

  /**
   * The booking limit's hit comes back only when the answer proves nothing was
   * booked: a refusal before anything went upstream (the BFF's own checks:
   * the body, its size and type, the honeypot, the Idempotency-Key; or every
   * dentist known taken), or a 504 booking_outcome_unknown whose re-send with
   * its Idempotency-Key will replay rather than book again. A booking sent
   * upstream counts, whatever its client does after (a hang-up included), and
   * so does a 504 without a key: its re-send would book again.
   */
  const giveBackUnbooked: ErrorRequestHandler = async (err: unknown, req, _res, next) => {
    const sent = sentUpstream.get(req);
    if (!sent || (err instanceof BookingOutcomeUnknown && sent.keyed)) await bookingRateLimit.giveBack(req);
    next(err);
  };

  const answerBooked = (res: Response, answer: UpstreamAnswer, doctorId: number | null, treatmentId: number | null) => {
    const booked = BookAppointmentResponse.safeParse(answer.body);
    if (!booked.success) throw new UpstreamUnavailable('server_error', 'upstream booking answer did not match the contract');
    const { appointment_id } = booked.data.data;
    bookedDetails.set(appointment_id, { doctor_id: doctorId, treatment_id: treatmentId });
    if (answer.replayed) res.set('Idempotent-Replayed', 'true');
    const body: BffBookingResponse = {
      success: true,
      message: booked.data.message,
      // The upstream id stays inside the reference: browsers never see it.
      data: { reference: createReference(appointment_id, referenceKey), doctor_id: doctorId },
    };
    res.json(body);
  };

  const bookAppointment = operation({
    id: 'bookAppointment',
    method: 'post',
    path: BOOKING_PATH,
    docs: {
      ...tagged('Appointments'),
      summary: 'Book an appointment',
      description:
        `The clinic API booking body plus the honeypot field "${HONEYPOT_FIELD}", which must stay empty; ` +
        'the answer adds a reference to follow the booking by. An optional Idempotency-Key is passed on, ' +
        'so a retry with the same key and body replays the first answer.',
    },
    request: {
      body: BrowserBookingRequest,
      headers: z.object({
        'Idempotency-Key': BookingIdempotencyKey.optional().meta({
          description: 'Repeating a key with the same body replays the first answer; with another body it is 422.',
        }),
      }),
    },
    responses: {
      '200': {
        description: "Booked: the reference to follow it by and the dentist booked (never the clinic API's appointment_id).",
        headers: NoStore,
        ...json(BffBookingResponse),
      },
      '400': errorAnswer('validation_error: the message names each bad field or broken rule.'),
      '409': errorAnswer('slot_unavailable: the dentist is already booked then.'),
      '413': errorAnswer(`payload_too_large: body over ${BROWSER_BOOKING_MAX_BYTES} bytes.`),
      '415': errorAnswer('unsupported_media_type: not sent as application/json.'),
      '422': errorAnswer('idempotency_key_reused: the key was used with another body.'),
      ...commonErrors,
      '504': {
        ...errorAnswer(
          'booking_outcome_unknown: the booking was sent but the clinic system did not confirm it in time, so it ' +
            'may or may not have been made. Send the same body again with the same Idempotency-Key: the answer is ' +
            'then the first booking, never a second one.',
        ),
        headers: z.object({ 'Retry-After': RetryAfterHeader }),
      },
    },
    before: [bookingRateLimit, ...jsonBody(BROWSER_BOOKING_MAX_BYTES)],
    async handle({ body: parsed }, req, res) {
      const { [HONEYPOT_FIELD]: _honeypot, ...booking } = req.body as Record<string, unknown>;
      const idempotencyKey = readIdempotencyKey(req);
      res.set('Cache-Control', 'no-store');
      const { appointment_date: date, appointment_time: time } = parsed;
      const requested = parsed.doctor_id ?? null;

      if (requested === null) {
        // Without the dentist list (upstream failing to answer it) the booking goes as the patient sent it.
        const dentists = await facts.dentistIdsForBooking().catch((): number[] => []);
        if (dentists.length > 0) {
          // A re-send (through any BFF of the clinic): the dentist this key booked (or may have) goes first, taken or not.
          const retry = idempotencyKey === undefined ? undefined : await dentistMemory.dentistOf(idempotencyKey);
          const order = retry !== undefined && dentists.includes(retry) ? [retry, ...dentists.filter((id) => id !== retry)] : dentists;
          for (const doctorId of order) {
            if (doctorId !== retry && (await taken.isTaken(doctorId, date, time))) continue;
            const key = idempotencyKey && dentistKey(idempotencyKey, doctorId);
            const answer = await send(req, { ...booking, doctor_id: doctorId }, key).catch(async (error: unknown) => {
              if (error instanceof BookingOutcomeUnknown && idempotencyKey) await dentistMemory.remember(idempotencyKey, doctorId);
              throw error;
            });
            if (answer.status === 409) {
              await taken.markTaken(doctorId, date, time);
              continue;
            }
            if (answer.status !== 200) return relayError(res, answer);
            await taken.markTaken(doctorId, date, time);
            if (idempotencyKey) await dentistMemory.remember(idempotencyKey, doctorId);
            return answerBooked(res, answer, doctorId, parsed.treatment_id ?? null);
          }
          throw new ApiError('slot_unavailable', 'Every dentist is booked at that time; please choose another time');
        }
      }

      const answer = await send(req, booking, idempotencyKey);
      if (requested !== null && (answer.status === 200 || answer.status === 409)) await taken.markTaken(requested, date, time);
      if (answer.status !== 200) return relayError(res, answer);
      answerBooked(res, answer, requested, parsed.treatment_id ?? null);
    },
    onError: giveBackUnbooked,
  });

  const lookUp = async (reference: string, res: Response) => {
    res.set('Cache-Control', 'no-store');
    const appointmentId = readReferenceWithAny(reference, readingKeys);
    if (appointmentId === undefined) throw notFound('Booking');
    const answer = await upstream.call({ method: 'GET', path: `${STATUS_PATH}/${appointmentId}` });
    if (answer.status === 404) throw notFound('Booking');
    if (answer.status !== 200) return relayError(res, answer);
    const status = AppointmentStatusResponse.safeParse(answer.body);
    if (!status.success) throw new UpstreamUnavailable('server_error', 'upstream status answer did not match the contract');
    const body: BffStatusResponse = { ...status.data, data: { ...status.data.data, ...bookedDetails.get(appointmentId) } };
    res.json(body);
  };

  /** What the deprecated GET status lookup adds to its answers. */
  const deprecationHeaders: RequestHandler = (_req, res, next) => {
    res.set(DEPRECATION_HEADERS);
    next();
  };

  return [
    bookAppointment,
    operation({
      id: 'lookUpAppointmentStatus',
      method: 'post',
      path: STATUS_LOOKUP_PATH,
      docs: {
        ...tagged('Appointments'),
        summary: 'The status of a booking by its reference',
        description:
          'The reference travels in the body, never in a URL, so no proxy, CDN or browser history records it. It is read ' +
          'in any case, with or without dashes or spaces, I and L as 1 and O as 0. A tampered or made-up reference is ' +
          '404 without asking the clinic system. Limited per client IP (STATUS_RATE_LIMIT, 30 in 10 minutes by default).',
      },
      request: { body: StatusLookupRequest },
      responses: {
        '200': { description: 'The status view.', headers: NoStore, ...json(BffStatusResponse) },
        '400': errorAnswer('validation_error: the body is not {reference} with a string.'),
        '404': errorAnswer('not_found: no booking has that reference.'),
        '413': errorAnswer(`payload_too_large: body over ${STATUS_LOOKUP_MAX_BYTES} bytes.`),
        '415': errorAnswer('unsupported_media_type: not sent as application/json.'),
        ...commonErrors,
      },
      before: [statusRateLimit, ...jsonBody(STATUS_LOOKUP_MAX_BYTES)],
      handle: ({ body }, _req, res) => lookUp(body.reference, res),
    }),
    operation({
      id: 'getAppointmentStatus',
      method: 'get',
      path: `${STATUS_PATH}/:reference`,
      docs: {
        ...tagged('Appointments'),
        summary: 'The status of a booking by its reference (deprecated)',
        description:
          `Deprecated: the reference in the URL is recorded by proxies, CDNs and browser history. Use POST ${STATUS_LOOKUP_PATH}; ` +
          `this answers until ${STATUS_GET_SUNSET_AT.toISOString().slice(0, 10)} (the Sunset header), under the same per-IP limit.`,
        deprecated: true,
      },
      // A reference the schema refuses (over 100 characters) names no booking either: 404, as any unknown one.
      request: { params: ReferencePathParams, notFound: 'Booking' },
      responses: {
        '200': { description: 'The status view.', headers: NoStore.extend(DeprecationHeaders.shape), ...json(BffStatusResponse) },
        '404': { ...errorAnswer('not_found: no booking has that reference.'), headers: DeprecationHeaders },
        ...commonErrors,
      },
      before: [statusRateLimit, deprecationHeaders],
      handle: ({ params }, _req, res) => lookUp(params.reference, res),
    }),
  ];
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

/**
 * Status codes whose upstream message helps the patient (it names the field or
 * rule). Not 429: upstream's rate limit is on the clinic's key, not on this
 * patient, so the client raises it as UpstreamBusy (503 upstream_busy).
 */
const RELAYED: Record<number, ErrorCode> = {
  400: 'validation_error',
  409: 'slot_unavailable',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  422: 'idempotency_key_reused',
};

/**
 * Rebuilds an upstream refusal as a fresh spec error body: only a known code
 * and a bounded message pass, never the raw upstream body. Anything else
 * (an upstream 401 after the retry, 404 of a route) is a 502.
 */
function relayError(res: Response, answer: UpstreamAnswer): void {
  const code = RELAYED[answer.status];
  const parsed = ErrorBody.safeParse(answer.body);
  if (!code || !parsed.success) throw new UpstreamUnavailable('server_error', `upstream answered ${answer.status}`);
  const body: ErrorBody = { success: false, message: parsed.data.message.slice(0, 500), error_code: code };
  res.status(answer.status).json(body);
}
