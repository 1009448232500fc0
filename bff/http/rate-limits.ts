import type { Request, Response } from 'express';
import { clientIpKey, perIpRateLimit, specRateLimit, type GivingBackRateLimit, type RateWindow, type SharedCounting } from '../../platform/rate-limits.js';

// Each limiter below counts in this process's memory, or with `shared` (REDIS_URL)
// in Redis across every BFF instance, per instance again while Redis is down.

/** What each per-IP policy says when it refuses. */
const REFUSALS = {
  api: 'Too many requests; please wait a moment and try again',
  booking: 'Too many booking attempts; please wait a few minutes, or call the clinic',
  status: 'Too many status lookups; please wait a few minutes, or call the clinic',
} as const;
export type LimitKind = keyof typeof REFUSALS;

/** Every /api route, per client IP. */
export const apiRateLimit = (window: RateWindow, shared?: SharedCounting) => perIpRateLimit('api', REFUSALS.api, window, { shared });

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
  perIpRateLimit('booking', REFUSALS.booking, window, { shared });

/**
 * Status lookups, per client IP: a reference carries a 64-bit MAC, and this
 * keeps guessing at 30 tries in 10 minutes (STATUS_RATE_LIMIT), hopeless.
 */
export const statusRateLimit = (window: RateWindow, shared?: SharedCounting) => perIpRateLimit('status', REFUSALS.status, window, { shared });

/** Which site a request is for, and that site's limit of a kind: what the router put on the answer's locals. */
export interface SiteOfAnswer {
  siteOf(res: Response): string;
  limitOf(res: Response, kind: LimitKind): number;
}

/**
 * One limiter of a kind for every site whose window is `windowMs`: counted per
 * site and client IP (the key starts with the site's id), each site's own limit
 * read at every request. One limiter, not one per site: a thousand sites cost
 * one store and one set of headers, and a site without overrides shares the
 * BFF's window.
 */
export function perSiteRateLimit(kind: LimitKind, windowMs: number, sites: SiteOfAnswer, shared?: SharedCounting): GivingBackRateLimit {
  return specRateLimit(
    kind,
    REFUSALS[kind],
    { limit: (_req, res) => sites.limitOf(res, kind), windowMs },
    (req, res) => `${sites.siteOf(res)}:${clientIpKey(req)}`,
    { shared },
  );
}

/**
 * Requests for a site this instance does not hold, per client IP (siteRoutes
 * passes only those here; a site held is counted under its own limits): each
 * may cost a read of the sites table, so ids that are no site (guesses,
 * typos, deleted sites) cannot be asked for without bound. Counted before the
 * read, under the BFF's per-IP API limit (API_RATE_*); a request that finds
 * its site gives its hit back (giveBack), so what stays counted is unknown ids.
 */
export const siteLookupRateLimit = (window: RateWindow, shared?: SharedCounting) => perIpRateLimit('site_lookup', REFUSALS.api, window, { shared });

/** What the change-request limits say when they refuse. */
const CHANGE_REFUSALS = {
  change: 'Too many change requests; please wait a while, or call the clinic',
  change_booking: 'Too many change requests for this booking; please call the clinic',
} as const;

/**
 * Change requests (POST /api/appointments/change-requests), per client IP
 * (CHANGE_RATE_LIMIT): each may cost an upstream status read and a write to
 * the BFF's database, and a reference carries a 64-bit MAC, so guessing stays
 * hopeless. `siteOf` set (the database sites, which share one limiter): counted
 * per site and IP, under the BFF's window, as no site sets its own.
 */
export function changeRateLimit(window: RateWindow, shared?: SharedCounting, siteOf?: (res: Response) => string): GivingBackRateLimit {
  if (!siteOf) return perIpRateLimit('change', CHANGE_REFUSALS.change, window, { shared });
  return specRateLimit('change', CHANGE_REFUSALS.change, window, (req, res) => `${siteOf(res)}:${clientIpKey(req)}`, { shared });
}

/**
 * Change requests per booking, from any IP (CHANGE_BOOKING_RATE_LIMIT): a
 * patient asks once or twice; more is someone pushing one booking. `bookingOf`
 * names the booking a request is for (site and appointment id, never the
 * reference: no key, header or log line carries it); a request it names none
 * for (a body or reference refused anyway) is not counted.
 */
export function changeBookingRateLimit(window: RateWindow, bookingOf: (req: Request) => string | undefined, shared?: SharedCounting): GivingBackRateLimit {
  return specRateLimit('change_booking', CHANGE_REFUSALS.change_booking, window, (req) => bookingOf(req)!, {
    shared,
    skip: (req) => bookingOf(req) === undefined,
  });
}

/**
 * The patients' unsubscribe page (GET and POST /mail/unsubscribe/{token}),
 * per client IP, under the BFF's per-IP API limit (API_RATE_*): each request
 * costs a read or a write of the BFF's database, and its tokens (256 random
 * bits) cannot be guessed at any rate. As high as the API's, since the
 * one-click POSTs of a mail provider's patients come from its few servers.
 */
export const unsubscribeRateLimit = (window: RateWindow, shared?: SharedCounting) => perIpRateLimit('unsubscribe', REFUSALS.api, window, { shared });
