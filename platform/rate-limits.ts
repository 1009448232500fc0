import { rateLimit, ipKeyGenerator, type Options, type RateLimitRequestHandler } from 'express-rate-limit';
import type { Request, Response } from 'express';
import type { RateWindow } from './config.js';
import { sendError } from './error-body.js';

export type { RateWindow };

/** The spec's 429 message when a policy has no words of its own. */
export const RATE_LIMITED_MESSAGE = 'Rate limit exceeded; retry after the number of seconds in Retry-After';

/**
 * A rate limit under a named policy that answers the spec's 429 body, with
 * draft-8 RateLimit / RateLimit-Policy headers and Retry-After. The key
 * (per IP, per app key, ...) is the caller's choice.
 */
export function specRateLimit(
  identifier: string,
  message: string,
  { limit, windowMs }: RateWindow,
  keyGenerator: Options['keyGenerator'],
  extra: Partial<Options> = {},
): RateLimitRequestHandler {
  return rateLimit({
    ...extra,
    standardHeaders: 'draft-8',
    legacyHeaders: false,
    identifier,
    limit,
    windowMs,
    keyGenerator,
    handler: (_req: Request, res: Response) => {
      sendError(res, 'rate_limited', message);
    },
  });
}

/** Per client IP (as `trust proxy` sees it; IPv6 by /56 subnet), under a named policy. */
export function perIpRateLimit(identifier: string, message: string, window: RateWindow, extra: Partial<Options> = {}): RateLimitRequestHandler {
  return specRateLimit(identifier, message, window, (req) => ipKeyGenerator(req.ip ?? 'unknown'), extra);
}
