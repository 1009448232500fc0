import { Router, type RequestHandler, type Response } from 'express';
import {
  AppointmentStatusResponse,
  BookAppointmentResponse,
  ErrorBody,
  type ErrorCode,
} from '../../contract/index.js';
import { notFound } from '../../contract/errors.js';
import { readIdempotencyKey } from '../../platform/idempotency-key.js';
import { jsonBody } from '../../platform/json-body.js';
import { parseBody } from '../../platform/validation.js';
import type { UpstreamAnswer, UpstreamClient } from '../upstream/upstream-client.js';
import { BookingOutcomeUnknown, UpstreamUnavailable } from '../upstream/errors.js';
import { createReference, readReference } from './booking-reference.js';
import { BROWSER_BOOKING_MAX_BYTES, BrowserBookingRequest, HONEYPOT_FIELD } from '../../contract/bff.js';

/**
 * POST /api/appointments/book and GET /api/appointments/status/:reference.
 * A booking waits for upstream up to `bookingTimeoutMs` (BOOKING_TIMEOUT_MS),
 * longer than reads: answering "try again" while upstream is still booking is
 * what makes a patient book twice.
 */
export function bookingRoutes(
  upstream: UpstreamClient,
  referenceKey: Buffer,
  bookingRateLimit: RequestHandler,
  bookingTimeoutMs: number,
): Router {
  const router = Router();

  router.post('/appointments/book', bookingRateLimit, ...jsonBody(BROWSER_BOOKING_MAX_BYTES), async (req, res) => {
    parseBody(BrowserBookingRequest, req.body);
    const { [HONEYPOT_FIELD]: _honeypot, ...booking } = req.body as Record<string, unknown>;
    const idempotencyKey = readIdempotencyKey(req);
    res.set('Cache-Control', 'no-store');
    const answer = await upstream
      .call({
        method: 'POST',
        path: '/appointments/book',
        body: booking,
        headers: idempotencyKey ? { 'idempotency-key': idempotencyKey } : {},
        timeoutMs: bookingTimeoutMs,
      })
      .catch((error: unknown) => {
        // Sent but never answered: upstream may have booked it. Say so, rather than "try again".
        throw error instanceof UpstreamUnavailable && error.mayHaveArrived ? new BookingOutcomeUnknown() : error;
      });
    if (answer.status !== 200) return relayError(res, answer);
    const booked = BookAppointmentResponse.safeParse(answer.body);
    if (!booked.success) throw new UpstreamUnavailable('server_error', 'upstream booking answer did not match the contract');
    const { appointment_id } = booked.data.data;
    if (answer.replayed) res.set('Idempotent-Replayed', 'true');
    res.json({
      success: true,
      message: booked.data.message,
      data: { appointment_id, reference: createReference(appointment_id, referenceKey) },
    });
  });

  router.get('/appointments/status/:reference', async (req, res) => {
    res.set('Cache-Control', 'no-store');
    const appointmentId = readReference(req.params.reference, referenceKey);
    if (appointmentId === undefined) throw notFound('Booking');
    const answer = await upstream.call({ method: 'GET', path: `/appointments/status/${appointmentId}` });
    if (answer.status === 404) throw notFound('Booking');
    if (answer.status !== 200) return relayError(res, answer);
    const status = AppointmentStatusResponse.safeParse(answer.body);
    if (!status.success) throw new UpstreamUnavailable('server_error', 'upstream status answer did not match the contract');
    res.json(status.data);
  });

  return router;
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
