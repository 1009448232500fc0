import type { Router } from 'express';
import { AppointmentPathParams, BookAppointmentRequest, notFound, type AppointmentStatusResponse } from '../../contract/index.js';
import { readIdempotencyKey } from '../../platform/idempotency-key.js';
import { jsonBody } from '../../platform/json-body.js';
import { parseBody, parseParams } from '../../platform/validation.js';
import { authenticatedClinic } from '../auth/authenticated-clinic.js';
import type { AppointmentStore } from './appointment.store.js';
import type { BookingService } from './booking.service.js';

/** POST /appointments/book (spec 4.1) and GET /appointments/status/{id} (spec 2.6), on the API's router. */
export function addAppointmentRoutes(api: Router, bookings: BookingService, appointments: AppointmentStore): void {
  api.post('/appointments/book', ...jsonBody(), async (req, res) => {
    const booking = parseBody(BookAppointmentRequest, req.body);
    const answer = await bookings.book(authenticatedClinic(res).careId, booking, readIdempotencyKey(req));
    res.set('Cache-Control', 'no-store');
    if (answer.replayed) res.set('Idempotent-Replayed', 'true');
    res.status(answer.status).json(answer.body);
  });

  api.get('/appointments/status/:id', async (req, res) => {
    res.set('Cache-Control', 'no-store');
    const { id } = parseParams(AppointmentPathParams, req.params, 'Appointment');
    const data = await appointments.statusView(authenticatedClinic(res).careId, id);
    if (!data) throw notFound('Appointment');
    const body: AppointmentStatusResponse = { success: true, message: 'Appointment status retrieved successfully', data };
    res.json(body);
  });
}
