import { createHash } from 'node:crypto';
import type { Request, RequestHandler, Response } from 'express';
import type { RateLimitRequestHandler } from 'express-rate-limit';
import { clientIpKey, perIpRateLimit, RATE_LIMITED_MESSAGE, specRateLimit, type RateWindow, type SharedCounting } from '../../platform/rate-limits.js';
import { authenticatedClinic } from './authenticated-clinic.js';

/**
 * Per app key on every authenticated endpoint; mounted after authentication.
 * With `shared` (REDIS_URL) every server instance counts against one budget.
 */
export const apiRateLimit = (window: RateWindow, shared?: SharedCounting): RateLimitRequestHandler =>
  specRateLimit('api', RATE_LIMITED_MESSAGE, window, (_req, res) => authenticatedClinic(res).appKey, { shared });

/** The budgets of POST /granttoken (TOKEN_RATE_* and TOKEN_FAILURE_RATE_*). */
export interface TokenExchangeLimits {
  /** Tokens issued per client IP. */
  issued: RateWindow;
  /** Failed exchanges per client IP and app key; per client IP over all keys, FAILURES_PER_IP_FACTOR times as many. */
  failed: RateWindow;
}

/** How many more failures one IP may make over all app keys than on one. */
export const FAILURES_PER_IP_FACTOR = 5;

const TOO_MANY_FAILURES = 'Too many failed token exchanges; retry after the number of seconds in Retry-After';

// express-rate-limit gives a request's count back when `requestWasSuccessful`
// says so, once the answer has been written (skipSuccessfulRequests); a client
// that hangs up before gets nothing back. So each limiter below counts exactly
// the answers it is about, and never the 429s of the others.

/** Only an issued token (200) stays counted. */
const issuedNoToken = (_req: Request, res: Response) => res.statusCode !== 200;
/** Only a refused key or secret (401) stays counted. */
const notRefusedCredentials = (_req: Request, res: Response) => res.statusCode !== 401;

/** The app key a request names, hashed: a key of fixed length, naming no credential in Redis. */
const appKeyOf = (req: Request) => createHash('sha256').update(req.get('x-app-key') ?? '').digest('base64url').slice(0, 22);

/**
 * POST /granttoken's limits, each counted on its own (shared through Redis with
 * `shared`), so that a flood of wrong secrets cannot lock the right secret out:
 *
 * - "granttoken": tokens issued per client IP (TOKEN_RATE_LIMIT). Failures do
 *   not count: an attacker's wrong secrets from an IP spend nothing of it.
 * - "granttoken-failed": failed exchanges per client IP and app key
 *   (TOKEN_FAILURE_RATE_LIMIT). Wrong secrets for key A from one IP stop only
 *   that IP's attempts on key A: key B from the same IP, and key A from every
 *   other IP (the clinic's BFF), go on.
 * - "granttoken-failed-ip": failed exchanges per client IP over all keys,
 *   FAILURES_PER_IP_FACTOR times the above, so one IP cannot spend the server's
 *   scrypt work unbounded by naming a new key (known or not) for each guess.
 *
 * The trade-off: a client behind the attacker's own IP (one NAT, one proxy
 * without TRUST_PROXY) is stopped with it for the same key, and for every key
 * once that IP's failures over all keys pass their bound, until the window
 * ends. Nothing per key alone: wrong secrets from many IPs would then lock a
 * clinic's BFF out everywhere, and 256-bit secrets need no such guard.
 */
export function tokenRateLimits({ issued, failed }: TokenExchangeLimits, shared?: SharedCounting): RequestHandler[] {
  const perIp = { ...failed, limit: failed.limit * FAILURES_PER_IP_FACTOR };
  return [
    perIpRateLimit('granttoken', RATE_LIMITED_MESSAGE, issued, { shared, skipSuccessfulRequests: true, requestWasSuccessful: issuedNoToken }),
    perIpRateLimit('granttoken-failed-ip', TOO_MANY_FAILURES, perIp, { shared, skipSuccessfulRequests: true, requestWasSuccessful: notRefusedCredentials }),
    specRateLimit('granttoken-failed', TOO_MANY_FAILURES, failed, (req) => `${clientIpKey(req)}:${appKeyOf(req)}`, {
      shared,
      skipSuccessfulRequests: true,
      requestWasSuccessful: notRefusedCredentials,
    }),
  ];
}
