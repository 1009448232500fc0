import { ipKeyGenerator, MemoryStore, rateLimit, type AugmentedRequest, type Options, type RateLimitInfo, type RateLimitRequestHandler, type Store } from 'express-rate-limit';
import type { Request, Response } from 'express';
import { RateLimitHeaders } from './fast-http/rate-limit-headers.js';
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

/** The count express-rate-limit left on the request (its default requestPropertyName). */
const countOf = (req: Request): RateLimitInfo | undefined => (req as AugmentedRequest).rateLimit;

/** A limiter whose caller may give a request's hit back, once it knows the request cost nothing. */
export interface GivingBackRateLimit extends RateLimitRequestHandler {
  /**
   * Takes back the hit this limiter counted for `req` (once; nothing when it
   * counted none, or when the window it was counted in has ended, as
   * express-rate-limit's own give-back does). A store that fails to take it
   * back leaves it counted.
   */
  giveBack(req: Request): Promise<void>;
}

/**
 * A rate limit under a named policy that answers the spec's 429 body, with
 * draft-8 RateLimit / RateLimit-Policy headers and Retry-After. The key
 * (per IP, per app key, ...) is the caller's choice. Without `shared` the counts
 * are express-rate-limit's own MemoryStore, exactly as without Redis at all.
 * The limit may be a function of the request (the BFF's sites each have their own).
 *
 * express-rate-limit counts and decides; the headers are the same bytes its
 * `standardHeaders: 'draft-8'` writes, written by RateLimitHeaders, which
 * does it for a fraction of the cost (see there).
 */
export function specRateLimit(
  identifier: string,
  message: string,
  { limit, windowMs }: RateWindow | { limit: Options['limit']; windowMs: number },
  keyGenerator: Options['keyGenerator'],
  { shared, ...extra }: LimiterOptions = {},
): GivingBackRateLimit {
  const headers = new RateLimitHeaders(identifier, windowMs);
  // One store per limiter, created with it (express-rate-limit refuses a store shared by two); kept here for giveBack.
  const store: Store = shared ? new SharedRateStore(shared.redis, `${shared.keyPrefix}${identifier}:`) : new MemoryStore();
  /** This limiter's count of each request it let through, for giveBack. */
  const counted = new WeakMap<Request, RateLimitInfo>();
  const limiter = rateLimit({
    ...extra,
    store,
    standardHeaders: false,
    legacyHeaders: false,
    identifier,
    limit,
    windowMs,
    keyGenerator,
    handler: (req: Request, res: Response) => {
      const info = countOf(req) as RateLimitInfo;
      headers.set(res, info);
      headers.setRetryAfter(res, info);
      sendError(res, 'rate_limited', message);
    },
  });
  const withHeaders = ((req, res, next) => {
    // Two limiters on one request (all of the API, then bookings) each leave
    // their count in req.rateLimit; a new object there is this limiter's.
    const earlier = countOf(req);
    void limiter(req, res, (err?: unknown) => {
      const count = countOf(req);
      if (err === undefined && count && count !== earlier) {
        headers.set(res, count);
        counted.set(req, count);
      }
      next(err);
    });
  }) as GivingBackRateLimit;
  withHeaders.resetKey = limiter.resetKey;
  withHeaders.getKey = limiter.getKey;
  withHeaders.giveBack = async (req) => {
    const count = counted.get(req);
    if (!count) return;
    counted.delete(req);
    if (count.resetTime && Date.now() >= count.resetTime.getTime()) return;
    await Promise.resolve(store.decrement(count.key)).catch(() => undefined);
  };
  return withHeaders;
}

/**
 * The key a per-IP limit counts under: the client's IP as `trust proxy` sees
 * it (req.ip), IPv6 by /56 subnet: express-rate-limit's own ipKeyGenerator.
 */
export const clientIpKey = (req: Request): string => ipKeyGenerator(req.ip ?? 'unknown');

/** Per client IP (as `trust proxy` sees it; IPv6 by /56 subnet), under a named policy. */
export function perIpRateLimit(identifier: string, message: string, window: RateWindow, options: LimiterOptions = {}): GivingBackRateLimit {
  return specRateLimit(identifier, message, window, clientIpKey, options);
}
