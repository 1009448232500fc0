import { rateLimit, ipKeyGenerator, type Options, type RateLimitRequestHandler } from 'express-rate-limit';
import type { Request, Response } from 'express';
import type { RateWindow } from './config.js';
import { sendError } from './error-body.js';
import type { RedisLink } from './redis-link.js';
import { SharedRateStore } from './shared-rate-store.js';

export type { RateWindow };

/** The spec's 429 message when a policy has no words of its own. */
export const RATE_LIMITED_MESSAGE = 'Rate limit exceeded; retry after the number of seconds in Retry-After';

/**
 * Where a service's limiters count when REDIS_URL is set: in Redis, each limiter
 * under `${keyPrefix}${identifier}:`, so every instance shares one count.
 */
export interface SharedCounting {
  redis: RedisLink;
  /** The service's namespace, e.g. `clinic-booking:server:rl:`. */
  keyPrefix: string;
}

export interface LimiterOptions extends Partial<Options> {
  /** Count in Redis across instances (falling back to memory while it is down); absent, in this process's memory. */
  shared?: SharedCounting;
}

/**
 * A rate limit under a named policy that answers the spec's 429 body, with
 * draft-8 RateLimit / RateLimit-Policy headers and Retry-After. The key
 * (per IP, per app key, ...) is the caller's choice. Without `shared` the counts
 * are express-rate-limit's own MemoryStore, exactly as without Redis at all.
 */
export function specRateLimit(
  identifier: string,
  message: string,
  { limit, windowMs }: RateWindow,
  keyGenerator: Options['keyGenerator'],
  { shared, ...extra }: LimiterOptions = {},
): RateLimitRequestHandler {
  return rateLimit({
    ...extra,
    // One store per limiter, created with it (express-rate-limit refuses a store shared by two).
    ...(shared ? { store: new SharedRateStore(shared.redis, `${shared.keyPrefix}${identifier}:`) } : {}),
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
export function perIpRateLimit(identifier: string, message: string, window: RateWindow, options: LimiterOptions = {}): RateLimitRequestHandler {
  return specRateLimit(identifier, message, window, (req) => ipKeyGenerator(req.ip ?? 'unknown'), options);
}
