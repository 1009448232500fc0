import type { RateLimitRequestHandler } from 'express-rate-limit';
import { perIpRateLimit, RATE_LIMITED_MESSAGE, specRateLimit, type RateWindow, type SharedCounting } from '../../platform/rate-limits.js';
import { authenticatedClinic } from './authenticated-clinic.js';

/**
 * Per app key on every authenticated endpoint; mounted after authentication.
 * With `shared` (REDIS_URL) every server instance counts against one budget.
 */
export const apiRateLimit = (window: RateWindow, shared?: SharedCounting): RateLimitRequestHandler =>
  specRateLimit('api', RATE_LIMITED_MESSAGE, window, (_req, res) => authenticatedClinic(res).appKey, { shared });

/** Per client IP on POST /granttoken: a much tighter budget against secret guessing; shared like the above. */
export const tokenRateLimit = (window: RateWindow, shared?: SharedCounting): RateLimitRequestHandler =>
  perIpRateLimit('granttoken', RATE_LIMITED_MESSAGE, window, { shared });
