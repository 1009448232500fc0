import { rateLimit, ipKeyGenerator, type RateLimitRequestHandler } from 'express-rate-limit';
import type { Request, Response } from 'express';
import { sendError } from './error-body.js';
import { authenticatedClinic } from '../auth/authenticated-clinic.js';

interface Window {
  limit: number;
  windowMs: number;
}

const common = {
  standardHeaders: 'draft-8',
  legacyHeaders: false,
  handler: (_req: Request, res: Response) => {
    sendError(res, 'rate_limited', 'Rate limit exceeded; retry after the number of seconds in Retry-After');
  },
} as const;

/** Per app key on every authenticated endpoint; mounted after authentication. */
export function apiRateLimit({ limit, windowMs }: Window): RateLimitRequestHandler {
  return rateLimit({
    ...common,
    identifier: 'api',
    limit,
    windowMs,
    keyGenerator: (_req, res) => authenticatedClinic(res).appKey,
  });
}

/** Per client IP on POST /granttoken: a much tighter budget against secret guessing. */
export function tokenRateLimit({ limit, windowMs }: Window): RateLimitRequestHandler {
  return rateLimit({
    ...common,
    identifier: 'granttoken',
    limit,
    windowMs,
    keyGenerator: (req) => ipKeyGenerator(req.ip ?? 'unknown'),
  });
}
