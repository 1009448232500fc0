import { ipKeyGenerator, rateLimit, type RateLimitRequestHandler } from 'express-rate-limit';
import { sendError } from '../../server/http/error-body.js';

interface Window {
  limit: number;
  windowMs: number;
}

const perIp = (identifier: string, message: string, { limit, windowMs }: Window): RateLimitRequestHandler =>
  rateLimit({
    identifier,
    limit,
    windowMs,
    standardHeaders: 'draft-8',
    legacyHeaders: false,
    keyGenerator: (req) => ipKeyGenerator(req.ip ?? 'unknown'),
    handler: (_req, res) => sendError(res, 'rate_limited', message),
  });

/** Every /api route, per client IP. */
export const apiRateLimit = (window: Window) =>
  perIp('api', 'Too many requests; please wait a moment and try again', window);

/** Bookings, per client IP: a much smaller budget against spam. */
export const bookingRateLimit = (window: Window) =>
  perIp('booking', 'Too many booking attempts; please wait a few minutes, or call the clinic', window);
