import { rateLimit, ipKeyGenerator, type RateLimitRequestHandler } from 'express-rate-limit';
import type { Request, Response } from 'express';
import { sendError } from './error-body.js';
import { authenticatedClinic } from '../server/auth/authenticated-clinic.js';

export interface Window {
  limit: number;
  windowMs: number;
}

const DEFAULT_MESSAGE = 'Rate limit exceeded; retry after the number of seconds in Retry-After';

/** draft-8 RateLimit headers and Retry-After, with the spec's 429 body. */
const common = (message: string) =>
  ({
    standardHeaders: 'draft-8',
    legacyHeaders: false,
    handler: (_req: Request, res: Response) => {
      sendError(res, 'rate_limited', message);
    },
  }) as const;

/** Per app key on every authenticated endpoint; mounted after authentication. */
export function apiRateLimit({ limit, windowMs }: Window): RateLimitRequestHandler {
  return rateLimit({
    ...common(DEFAULT_MESSAGE),
    identifier: 'api',
    limit,
    windowMs,
    keyGenerator: (_req, res) => authenticatedClinic(res).appKey,
  });
}

/** Per client IP (as `trust proxy` sees it), under a named policy; shared with the BFF. */
export function perIpRateLimit(identifier: string, message: string, { limit, windowMs }: Window): RateLimitRequestHandler {
  return rateLimit({
    ...common(message),
    identifier,
    limit,
    windowMs,
    keyGenerator: (req) => ipKeyGenerator(req.ip ?? 'unknown'),
  });
}

/** Per client IP on POST /granttoken: a much tighter budget against secret guessing. */
export const tokenRateLimit = (window: Window) => perIpRateLimit('granttoken', DEFAULT_MESSAGE, window);
