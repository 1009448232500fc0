import { z } from 'zod';
import {
  AppointmentPathParams,
  AppointmentStatusResponse,
  BookAppointmentRequest,
  BookAppointmentResponse,
  IdempotencyKeyHeader,
  LIMITS,
  notFound,
} from '../../contract/index.js';
import { DEFAULT_BOOKING_RULES } from '../../contract/rules/booking-rules.js';
import { readIdempotencyKey } from '../../platform/idempotency-key.js';
import { jsonBody } from '../../platform/json-body.js';
import { operation } from '../../platform/operation.js';
import { authenticatedClinic } from '../auth/authenticated-clinic.js';
import { authenticated, authenticatedErrors, errorAnswer, json } from '../http/answers.js';
import type { AppointmentStore } from './appointment.store.js';
import type { BookingService } from './booking.service.js';

/** POST /appointments/book (spec 4.1) and GET /appointments/status/{id} (spec 2.6). */
export function appointmentOperations(bookings: BookingService, appointments: AppointmentStore) {
  return [
    operation({
      id: 'bookAppointment',
      method: 'post',
      path: '/appointments/book',
      docs: {
        ...authenticated('Appointments', 'Book an appointment'),
        description:
          'Creates a Scheduled appointment. The date and time are clinic-local and must be in the future, ' +
          `at least the clinic's minimum notice ahead (min_notice_minutes, ${DEFAULT_BOOKING_RULES.minNoticeMinutes} unless set), ` +
          `within its horizon (horizon_days, ${DEFAULT_BOOKING_RULES.horizonDays} unless set), and inside that day's opening hours. ` +
          "The appointment holds its dentist for the treatment's duration_minutes, or without a treatment the clinic's " +
          `default length (${DEFAULT_BOOKING_RULES.defaultDurationMinutes} minutes unless set). ` +
          'An optional Idempotency-Key makes retries safe for 24 hours.',
      },
      request: {
        body: BookAppointmentRequest,
        headers: z.object({
          'idempotency-key': IdempotencyKeyHeader.optional().meta({
            description: 'Repeating a key with the same body replays the first answer; with another body it is 422.',
          }),
        }),
      },
      responses: {
        '200': { description: 'Booked.', ...json(BookAppointmentResponse) },
        '400': errorAnswer('validation_error: the message names each bad field or broken rule.'),
        '409': errorAnswer('slot_unavailable: the appointment would overlap a Scheduled appointment of that dentist.'),
        '413': errorAnswer(`payload_too_large: body over ${LIMITS.requestBodyBytes} bytes.`),
        '415': errorAnswer('unsupported_media_type: not sent as application/json.'),
        '422': errorAnswer('idempotency_key_reused: the key was used with another body.'),
        ...authenticatedErrors,
      },
      before: jsonBody(),
      async handle({ body }, req, res) {
        const answer = await bookings.book(authenticatedClinic(res).careId, body, readIdempotencyKey(req));
        res.set('Cache-Control', 'no-store');
        if (answer.replayed) res.set('Idempotent-Replayed', 'true');
        res.status(answer.status).json(answer.body);
      },
    }),
    operation({
      id: 'getAppointmentStatus',
      method: 'get',
      path: '/appointments/status/:id',
      docs: authenticated('Appointments', 'The status of an appointment'),
      request: { params: AppointmentPathParams, notFound: 'Appointment' },
      responses: {
        '200': { description: 'The status view.', ...json(AppointmentStatusResponse) },
        '404': errorAnswer('not_found: no appointment of this clinic has that id.'),
        ...authenticatedErrors,
      },
      // The status changes: no answer is kept, not even the 404 of an id that does not parse.
      answerHeaders: { 'Cache-Control': 'no-store' },
      async handle({ params }, _req, res) {
        const data = await appointments.statusView(authenticatedClinic(res).careId, params.id);
        if (!data) throw notFound('Appointment');
        const body: AppointmentStatusResponse = { success: true, message: 'Appointment status retrieved successfully', data };
        res.json(body);
      },
    }),
  ];
}
