import { z } from 'zod';
import { BookAppointmentRequest } from '../../contract/index.js';

/** The form's hidden honeypot field: people never see it, so only bots fill it in. */
export const HONEYPOT_FIELD = 'website';

/** What a browser may send: the spec's booking body plus the honeypot, which must stay empty. */
export const BrowserBookingRequest = BookAppointmentRequest.extend({
  [HONEYPOT_FIELD]: z.string().max(0, { message: 'must be empty' }).optional(),
});

/** Largest booking body a browser may send. */
export const BROWSER_BOOKING_MAX_BYTES = 8 * 1024;
