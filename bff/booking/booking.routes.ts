import type { ErrorRequestHandler, Request, RequestHandler, Response } from 'express';
import { z } from 'zod';
import { ApiError, ErrorBody, type BookAppointmentRequest } from '../../contract/index.js';
import { notFound } from '../../contract/errors.js';
import { RetryAfterHeader } from '../../contract/headers.js';
import { readIdempotencyKey } from '../../platform/idempotency-key.js';
import { jsonBody } from '../../platform/json-body.js';
import { declaration, served, type AnyOperation } from '../../platform/operation.js';
import type { GivingBackRateLimit } from '../../platform/rate-limits.js';
import type { UpstreamAnswer, UpstreamClient } from '../upstream/upstream-client.js';
import { BookingOutcomeUnknown } from '../upstream/errors.js';
import type { ChangeRequests } from '../changes/change-requests.js';
import { readStatusView, upstreamRefusal } from './status-view.js';
import { createReference, readReferenceWithAny } from './booking-reference.js';
import type { BookingService } from './booking.service.js';
import { commonErrors, errorAnswer, json, NoStore, tagged } from '../http/answers.js';
import {
  BffBookingResponse,
  BffStatusResponse,
  BookingIdempotencyKey,
  BOOKING_PATH,
  BROWSER_BOOKING_MAX_BYTES,
  BrowserBookingRequest,
  HONEYPOT_FIELD,
  PATIENT_MAIL_FIELDS,
  ReferencePathParams,
  STATUS_LOOKUP_MAX_BYTES,
  STATUS_LOOKUP_PATH,
  STATUS_PATH,
  StatusLookupRequest,
} from '../../contract/bff.js';

export interface BookingRoutesOptions {
  /** The booking rules: "any dentist", each try's key, what is learnt from answers. */
  bookings: BookingService;
  upstream: UpstreamClient;
  /** New references are made with this key (BOOKING_REF_SECRET). */
  referenceKey: Buffer;
  /** References are read with these too (BOOKING_REF_SECRET_PREVIOUS), so rotating the reference secret voids none. */
  previousReferenceKeys: readonly Buffer[];
  /** Bookings per client IP (BOOKING_RATE_LIMIT); the routes give a hit back only for a booking that surely booked nothing. */
  bookingRateLimit: GivingBackRateLimit;
  /** Status lookups per client IP (STATUS_RATE_LIMIT), on POST and the deprecated GET alike. */
  statusRateLimit: RequestHandler;
  /** Each booking recorded with its booking.created messages; each status view's `changes`. */
  changes: ChangeRequests;
  /** The page the site's manage links open (BOOKING_PAGE_URL), put in each booking's answer; absent, none. */
  bookingPageUrl?: string;
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

/** What POST /api/appointments/book declares: the same for every site. */
const BOOK_APPOINTMENT = declaration({
  id: 'bookAppointment',
  method: 'post',
  path: BOOKING_PATH,
  docs: {
    ...tagged('Appointments'),
    summary: 'Book an appointment',
    description:
      `The clinic API booking body plus the honeypot field "${HONEYPOT_FIELD}", which must stay empty; ` +
      'the answer adds a reference to follow the booking by. An optional Idempotency-Key is passed on, ' +
      'so a retry with the same key and body replays the first answer. The clinic is told of each booking once ' +
      '(booking.created, by e-mail and webhook when its channels are on); a replay tells it nothing again.',
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
    '400': errorAnswer(
      'validation_error: the message names each bad field or broken rule. When the BFF refused the booking itself, ' +
        "from the clinic's time, its notice and horizon (BOOKING_MIN_NOTICE_MINUTES, BOOKING_HORIZON_DAYS), its opening " +
        'hours, treatments and dentists and the 15-minute grid, before sending it on, `reason` names the rule as a code: ' +
        'in_past, inside_notice, beyond_horizon, closed_day, outside_hours, ends_after_closing, unknown_treatment, ' +
        'unknown_dentist or off_grid. A re-send of the same body with the Idempotency-Key of a booking accepted before ' +
        'still goes on once time has brought it inside the notice, and replays; another body under that key is a new ' +
        'booking, refused inside_notice then.',
    ),
    '409': errorAnswer('slot_unavailable: the dentist is already booked then.'),
    '413': errorAnswer(`payload_too_large: body over ${BROWSER_BOOKING_MAX_BYTES} bytes.`),
    '415': errorAnswer('unsupported_media_type: not sent as application/json.'),
    '422': errorAnswer(
      'idempotency_key_reused: the key was used with another body, on this site (a named dentist or "any dentist" alike).',
    ),
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
});

/** What POST /api/appointments/status declares: the same for every site. */
const LOOK_UP_STATUS = declaration({
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
});

/** What the deprecated GET /api/appointments/status/:reference declares: the same for every site. */
const GET_STATUS = declaration({
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
  // On every answer past the status limit, its 404s included.
  answerHeaders: DEPRECATION_HEADERS,
  responses: {
    '200': { description: 'The status view.', headers: NoStore.extend(DeprecationHeaders.shape), ...json(BffStatusResponse) },
    '404': { ...errorAnswer('not_found: no booking has that reference.'), headers: DeprecationHeaders },
    ...commonErrors,
  },
});

/**
 * POST /api/appointments/book, POST /api/appointments/status ({reference})
 * and the deprecated GET /api/appointments/status/:reference: HTTP only. The
 * booking's rules are the BookingService's; here are its body and headers,
 * its answer (a reference for the upstream id, an upstream refusal rebuilt),
 * and the booking limit's give-back, which depends on what reached upstream.
 */
export function bookingOperations(options: BookingRoutesOptions): AnyOperation[] {
  const { bookings, upstream, referenceKey, bookingRateLimit, statusRateLimit, changes, bookingPageUrl } = options;
  const readingKeys = [referenceKey, ...options.previousReferenceKeys];

  /** Bookings that went upstream (may be stored), and whether they carried an Idempotency-Key (a re-send then replays). */
  const sentUpstream = new WeakMap<Request, { keyed: boolean }>();


  /**
   * The booking limit's hit comes back only when the answer proves nothing was
   * booked: a refusal before anything went upstream (the BFF's own checks:
   * the body, its size and type, the honeypot, the Idempotency-Key, a rule the
   * service checks itself; or every dentist known taken), or a 504
   * booking_outcome_unknown whose re-send with its Idempotency-Key will replay
   * rather than book again. A booking sent upstream counts, whatever its
   * client does after (a hang-up included), and so does a 504 without a key:
   * its re-send would book again.
   */
  const giveBackUnbooked: ErrorRequestHandler = async (err: unknown, req, _res, next) => {
    const sent = sentUpstream.get(req);
    if (!sent || (err instanceof BookingOutcomeUnknown && sent.keyed)) await bookingRateLimit.giveBack(req);
    next(err);
  };

  const bookAppointment = served(BOOK_APPOINTMENT, {
    before: [bookingRateLimit, ...jsonBody(BROWSER_BOOKING_MAX_BYTES)],
    async handle({ body: parsed }, req, res) {
      // Upstream gets the spec's body: without the honeypot, and without what stays in the BFF (the patient's e-mail).
      const body = withoutFields(req.body as Record<string, unknown>, [HONEYPOT_FIELD, ...PATIENT_MAIL_FIELDS]);
      const booking = withoutFields(parsed, PATIENT_MAIL_FIELDS) as BookAppointmentRequest;
      const idempotencyKey = readIdempotencyKey(req);
      res.set('Cache-Control', 'no-store');
      const outcome = await bookings.book({ body, booking, idempotencyKey }, (keyed) => sentUpstream.set(req, { keyed }));
      if (!outcome.booked) return relayError(res, outcome.refusal);
      if (outcome.replayed) res.set('Idempotent-Replayed', 'true');
      const reference = createReference(outcome.appointmentId, referenceKey);
      // Booked: recorded and told to the clinic's channels once (a replay of a booking recorded writes nothing).
      // A failed write is logged, and the booking is answered as what it is: booked.
      // The patient's e-mail, only with the consent ticked (the contract refuses an address without it).
      const patientMail =
        parsed.patient_email && parsed.email_consent === true
          ? { email: parsed.patient_email, language: parsed.language, pageUrl: parsed.page_url }
          : undefined;
      await changes.bookingMade({ appointmentId: outcome.appointmentId, reference, booking, doctorId: outcome.doctorId, replayed: outcome.replayed, patientMail });
      const answer: BffBookingResponse = {
        success: true,
        message: outcome.message,
        // The upstream id stays inside the reference: browsers never see it.
        data: {
          reference,
          doctor_id: outcome.doctorId,
          ...(bookingPageUrl !== undefined ? { booking_page_url: bookingPageUrl } : {}),
        },
      };
      res.json(answer);
    },
    onError: giveBackUnbooked,
  });

  const lookUp = async (reference: string, res: Response) => {
    res.set('Cache-Control', 'no-store');
    const appointmentId = readReferenceWithAny(reference, readingKeys);
    if (appointmentId === undefined) throw notFound('Booking');
    const status = await readStatusView(upstream, appointmentId);
    const view = status.data;
    // What may be asked of it, from the change requests taken (none without the database, or when it fails).
    const changed = await changes.viewOf(appointmentId, view);
    const body: BffStatusResponse = {
      ...status,
      data: { ...view, ...bookings.detailsOf(appointmentId), ...(changed ? { changes: changed } : {}) },
    };
    res.json(body);
  };

  return [
    bookAppointment,
    served(LOOK_UP_STATUS, {
      before: [statusRateLimit, ...jsonBody(STATUS_LOOKUP_MAX_BYTES)],
      handle: ({ body }, _req, res) => lookUp(body.reference, res),
    }),
    served(GET_STATUS, {
      before: [statusRateLimit],
      handle: ({ params }, _req, res) => lookUp(params.reference, res),
    }),
  ];
}

/**
 * Answers an upstream refusal of a booking as upstream's status with a fresh
 * spec error body (upstreamRefusal); anything not to relay is a 502.
 */
function relayError(res: Response, answer: UpstreamAnswer): void {
  const refusal = upstreamRefusal(answer);
  if (!(refusal instanceof ApiError)) throw refusal;
  const body: ErrorBody = { success: false, message: refusal.message, error_code: refusal.code };
  res.status(answer.status).json(body);
}

/** `body` without the named fields. */
function withoutFields(body: Record<string, unknown>, fields: readonly string[]): Record<string, unknown> {
  const kept = { ...body };
  for (const field of fields) delete kept[field];
  return kept;
}
