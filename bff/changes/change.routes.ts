import { createHmac } from 'node:crypto';
import type { Request, RequestHandler } from 'express';
import { z } from 'zod';
import { notFound } from '../../contract/errors.js';
import { RetryAfterHeader } from '../../contract/headers.js';
import { CHANGE_REQUEST_MAX_BYTES, CHANGE_REQUEST_PATH, formatReference, MAX_PREFERRED_STARTS, normaliseReference } from '../../contract/rules/bff-api.js';
import { ChangeRequestBody, ChangeRequestResponse } from '../../contract/bff-changes.js';
import { jsonBody } from '../../platform/json-body.js';
import { declaration, served, type AnyOperation } from '../../platform/operation.js';
import type { GivingBackRateLimit } from '../../platform/rate-limits.js';
import { readReferenceWithAny } from '../booking/booking-reference.js';
import { readStatusView } from '../booking/status-view.js';
import type { UpstreamClient } from '../upstream/upstream-client.js';
import { commonErrors, errorAnswer, json, NoStore, tagged } from '../http/answers.js';
import type { ChangeRequests } from './change-requests.js';

/** What POST /api/appointments/change-requests declares: the same for every site. */
const REQUEST_CHANGE = declaration({
  id: 'requestAppointmentChange',
  method: 'post',
  path: CHANGE_REQUEST_PATH,
  docs: {
    ...tagged('Appointments'),
    summary: 'Ask the clinic to cancel or move a booking',
    description:
      'The clinic API can neither cancel nor move an appointment: this passes the patient\'s request on to the clinic ' +
      '(e-mail, webhook), whose staff act on it in their own system; the status lookup then shows the change. ' +
      'Taken while the booking is Scheduled and its start at least the clinic\'s change window ahead ' +
      '(CHANGE_REQUEST_MIN_NOTICE_HOURS, 24 by default; the status view\'s `changes` says whether it is). ' +
      `A move names one to ${MAX_PREFERRED_STARTS} wished starts, each checked as a booking's start is. ` +
      'One request of each kind per booking: a second is answered 200 `already_requested: true` and sends nothing. ' +
      'The reference travels in the body, never in a URL. Limited per client IP (CHANGE_RATE_LIMIT, 10 an hour by ' +
      'default) and per booking (CHANGE_BOOKING_RATE_LIMIT, 5 a day).',
  },
  request: { body: ChangeRequestBody },
  answerHeaders: { 'Cache-Control': 'no-store' },
  responses: {
    '201': { description: 'Taken: the clinic is told.', headers: NoStore, ...json(ChangeRequestResponse) },
    '200': {
      description: 'A request of this kind was taken before (`already_requested: true`, its time): nothing is sent again.',
      headers: NoStore,
      ...json(ChangeRequestResponse),
    },
    '400': errorAnswer(
      'validation_error: the message names each bad field (kind missing, no or too many wished starts, a start ' +
        'named twice, starts on a cancel, a message too long or holding control characters). When the request is ' +
        'not taken, `reason` says why: already_cancelled, appointment_completed, in_past, inside_change_window or ' +
        'move_not_offered; for a wished start a booking could not have, that start\'s reason (in_past, ' +
        'inside_notice, beyond_horizon, closed_day, outside_hours, ends_after_closing, off_grid), the message naming the start.',
    ),
    '404': errorAnswer('not_found: no booking has that reference (a reference of another site names none here).'),
    '413': errorAnswer(`payload_too_large: body over ${CHANGE_REQUEST_MAX_BYTES} bytes.`),
    '415': errorAnswer('unsupported_media_type: not sent as application/json.'),
    ...commonErrors,
    '503': {
      ...errorAnswer(
        'upstream_busy: the clinic system is busy; try again after Retry-After seconds. database_unavailable: the ' +
          "BFF's database failed, so nothing was taken; try again shortly, or call the clinic.",
      ),
      headers: z.object({ 'Retry-After': RetryAfterHeader.optional() }),
    },
  },
});

export interface ChangeRoutesOptions {
  changes: ChangeRequests;
  upstream: UpstreamClient;
  /** The site's id: each booking's count of change requests is the site's own. */
  siteId: string;
  /** The site's reference keys, the current first (BOOKING_REF_SECRET, then BOOKING_REF_SECRET_PREVIOUS). */
  referenceKeys: readonly Buffer[];
  /** Change requests per client IP (CHANGE_RATE_LIMIT). */
  changeRateLimit: GivingBackRateLimit;
  /** Change requests per booking (CHANGE_BOOKING_RATE_LIMIT), keyed by changeBookingOf. */
  changeBookingRateLimit: GivingBackRateLimit;
}

/** The booking each change request is for, as its per-booking limit counts it (changeBookingOf). */
const bookingOfRequest = new WeakMap<Request, string>();

/**
 * The key a change request counts under per booking: the site's id and a tag
 * of the appointment id, an HMAC under the site's reference key, so that no
 * key, and no RateLimit-Policy header's hash of it, names the appointment id
 * (a reference hides it) or carries the reference. Undefined for a request
 * whose body is refused anyway or whose reference names no booking of the site.
 */
export const changeBookingOf = (req: Request): string | undefined => bookingOfRequest.get(req);

/**
 * POST /api/appointments/change-requests: HTTP only; the rules are
 * ChangeRequests'. The reference is read with the site's keys (another
 * site's names nothing: 404, as the status lookup), the booking's status view
 * asked of upstream, then the request taken or refused.
 */
export function changeOperations(options: ChangeRoutesOptions): AnyOperation[] {
  const { changes, upstream, siteId, referenceKeys } = options;
  const tagKey = referenceKeys[0]!;

  /** Names the booking of a well-formed request, for its per-booking limit; parses the body once more, which is small. */
  const identifyBooking: RequestHandler = (req, _res, next) => {
    const parsed = ChangeRequestBody.safeParse(req.body);
    const appointmentId = parsed.success ? readReferenceWithAny(parsed.data.reference, referenceKeys) : undefined;
    if (appointmentId !== undefined) {
      const tag = createHmac('sha256', tagKey).update(`change-requests:${appointmentId}`).digest('base64url').slice(0, 22);
      bookingOfRequest.set(req, `${siteId}:${tag}`);
    }
    next();
  };

  return [
    served(REQUEST_CHANGE, {
      before: [options.changeRateLimit, ...jsonBody(CHANGE_REQUEST_MAX_BYTES), identifyBooking, options.changeBookingRateLimit],
      async handle({ body }, _req, res) {
        // Before anything is asked of upstream.
        changes.ensureTakesRequests();
        const appointmentId = readReferenceWithAny(body.reference, referenceKeys);
        if (appointmentId === undefined) throw notFound('Booking');
        const status = await readStatusView(upstream, appointmentId);
        const taken = await changes.request({
          appointmentId,
          reference: formatReference(normaliseReference(body.reference)),
          status: status.data,
          kind: body.kind,
          preferredStarts: body.preferred_starts ?? [],
          message: body.message,
        });
        const answer: ChangeRequestResponse = {
          success: true,
          message: taken.alreadyRequested ? 'Already requested; the clinic was told then' : 'Request sent to the clinic',
          data: { kind: body.kind, requested_at: new Date(taken.requestedAt).toISOString(), already_requested: taken.alreadyRequested },
        };
        res.status(taken.alreadyRequested ? 200 : 201).json(answer);
      },
    }),
  ];
}
