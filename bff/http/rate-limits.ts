import { perIpRateLimit, type RateWindow } from '../../platform/rate-limits.js';

/** Every /api route, per client IP. */
export const apiRateLimit = (window: RateWindow) =>
  perIpRateLimit('api', 'Too many requests; please wait a moment and try again', window);

/** Bookings, per client IP: a much smaller budget against spam. */
export const bookingRateLimit = (window: RateWindow) =>
  perIpRateLimit('booking', 'Too many booking attempts; please wait a few minutes, or call the clinic', window);
