import { perIpRateLimit, type RateWindow, type SharedCounting } from '../../platform/rate-limits.js';

// Each limiter below counts in this process's memory, or with `shared` (REDIS_URL)
// in Redis across every BFF instance, per instance again while Redis is down.

/** Every /api route, per client IP. */
export const apiRateLimit = (window: RateWindow, shared?: SharedCounting) =>
  perIpRateLimit('api', 'Too many requests; please wait a moment and try again', window, { shared });

/**
 * Bookings, per client IP: a much smaller budget against spam. Every booking
 * counts once it is let through, whatever its client does after: hanging up
 * before the answer gives nothing back, since the booking may be on its way
 * upstream or stored already. Only the booking routes give a hit back
 * (giveBack), for the answers that prove nothing was booked (booking.routes.ts).
 * No skipFailedRequests: it gives the hit back on 'close' when the answer was
 * not written, which is exactly what a client that hangs up makes happen.
 */
export const bookingRateLimit = (window: RateWindow, shared?: SharedCounting) =>
  perIpRateLimit('booking', 'Too many booking attempts; please wait a few minutes, or call the clinic', window, { shared });

/**
 * Status lookups, per client IP: a reference carries a 64-bit MAC, and this
 * keeps guessing at 30 tries in 10 minutes (STATUS_RATE_LIMIT), hopeless.
 */
export const statusRateLimit = (window: RateWindow, shared?: SharedCounting) =>
  perIpRateLimit('status', 'Too many status lookups; please wait a few minutes, or call the clinic', window, { shared });
