import { z } from 'zod';
import {
  AppointmentStatusResponse,
  BookAppointmentRequest,
  DentistListResponse,
  IdempotencyKeyHeader,
  OrganizationResponse,
  TreatmentListResponse,
  TreatmentResponse,
  WebsiteResponse,
} from './index.js';
import { BOOKING_PATH, BROWSER_BOOKING_MAX_BYTES, CONTENT_PATHS, HONEYPOT_FIELD, STATUS_PATH } from './rules/bff-api.js';

/**
 * The BFF's own public API (/api), the one browsers and the widget call. It
 * passes the spec's content through, sanitised, and wraps booking: the
 * browser never sees the upstream's sequential appointment ids alone, only an
 * opaque reference. Its OpenAPI document (/api/openapi.json) is generated from here.
 */
export { BOOKING_PATH, BROWSER_BOOKING_MAX_BYTES, CONTENT_PATHS, HONEYPOT_FIELD, STATUS_PATH };

/** What a browser may send to book: the spec's booking body plus the honeypot, which must stay empty. */
export const BrowserBookingRequest = BookAppointmentRequest.extend({
  [HONEYPOT_FIELD]: z
    .string()
    .max(0, { message: 'must be empty' })
    .optional()
    .meta({ description: 'Honeypot: hidden from people, so only bots fill it in. Must be empty or absent.' }),
}).meta({ id: 'BrowserBookingRequest' });
export type BrowserBookingRequest = z.input<typeof BrowserBookingRequest>;

/** An opaque booking reference: encrypted and signed, it stands in for the appointment_id in every later call. */
export const BookingReference = z
  .string()
  .min(1)
  .max(100)
  .meta({ description: 'Opaque, unforgeable booking reference.', example: 'q3J9h0iX2cY1m8Vt5bKpZr7a0Lw4nD6sE2fGhJkQxYv0_u3Ob' });

/** The booking answer's data: the spec's appointment_id and the reference a patient keeps. */
export const BookingResult = z
  .object({ appointment_id: z.number().int().min(1), reference: BookingReference })
  .strict()
  .meta({ id: 'BookingResult' });
export type BookingResult = z.infer<typeof BookingResult>;

export const BffBookingResponse = z
  .object({ success: z.literal(true), message: z.string(), data: BookingResult })
  .strict()
  .meta({ id: 'BffBookingResponse' });
export type BffBookingResponse = z.infer<typeof BffBookingResponse>;

/** The status of a booking by its reference: the spec's status view, unchanged. */
export const BffStatusResponse = AppointmentStatusResponse;
export type BffStatusResponse = z.infer<typeof BffStatusResponse>;

export const ReferencePathParams = z.object({ reference: BookingReference });

/** The Idempotency-Key a browser sends with a booking, passed upstream as is. */
export const BookingIdempotencyKey = IdempotencyKeyHeader;

/** Each read-only content resource: its path under /api and the schema of its answer. */
export const CONTENT_RESOURCES = {
  organization: { path: CONTENT_PATHS.organization, name: 'Organization', response: OrganizationResponse },
  website: { path: CONTENT_PATHS.website, name: 'Website', response: WebsiteResponse },
  treatments: { path: CONTENT_PATHS.treatments, name: 'Treatments', response: TreatmentListResponse },
  treatment: { path: `${CONTENT_PATHS.treatments}/{id}`, name: 'Treatment', response: TreatmentResponse },
  dentists: { path: CONTENT_PATHS.dentists, name: 'Dentists', response: DentistListResponse },
} as const;
export type ContentResourceName = keyof typeof CONTENT_RESOURCES;
