import type { RateLimitRequestHandler } from 'express-rate-limit';
import { perIpRateLimit, RATE_LIMITED_MESSAGE, specRateLimit, type RateWindow } from '../../platform/rate-limits.js';
import { authenticatedClinic } from './authenticated-clinic.js';

/** Per app key on every authenticated endpoint; mounted after authentication. */
export const apiRateLimit = (window: RateWindow): RateLimitRequestHandler =>
  specRateLimit('api', RATE_LIMITED_MESSAGE, window, (_req, res) => authenticatedClinic(res).appKey);

/** Per client IP on POST /granttoken: a much tighter budget against secret guessing. */
export const tokenRateLimit = (window: RateWindow): RateLimitRequestHandler =>
  perIpRateLimit('granttoken', RATE_LIMITED_MESSAGE, window);
