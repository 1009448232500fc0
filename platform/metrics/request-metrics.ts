import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';
import { match } from 'path-to-regexp';
import { ServiceMetrics } from './service-metrics.js';

/** The methods a label may name; any other is `other`, so a client cannot make new series by inventing methods. */
const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/** What `route` says for a path no template matches (a 404, an asset): never the path itself. */
export const UNMATCHED_ROUTE = 'unmatched';

export interface RequestMetricsOptions {
  /**
   * Every route template the service answers, as the full path Express
   * matches (`/api/v1/treatments/:id`): the only values `route` takes,
   * besides UNMATCHED_ROUTE.
   */
  routes: readonly string[];
  /** The template(s) of the booking operation (`POST` only), whose answers `bookings_total` counts. */
  bookingRoute?: string | readonly string[];
}

/**
 * Observes `http_request_duration_seconds` for every request once its answer
 * has finished (or the client went away), labelled by method, route template
 * and status. The template is found by matching the request's path against the
 * service's own templates as Express's router does (path-to-regexp, any letter
 * case, one trailing slash; literal paths first), never copied from the path: a
 * booking reference in a status lookup's path, an id or a made-up path can
 * never become a label.
 * A booking's answer also counts in `bookings_total{outcome}`.
 */
export function requestMetrics(metrics: ServiceMetrics, { routes, bookingRoute }: RequestMetricsOptions): RequestHandler {
  const bookingRoutes = new Set(typeof bookingRoute === 'string' ? [bookingRoute] : (bookingRoute ?? []));
  const literalFirst = [...routes].sort((a, b) => Number(a.includes(':')) - Number(b.includes(':')));
  const templates = literalFirst.map((route) => ({ route, matches: match(route, { sensitive: false, end: true, trailing: true, decode: false }) }));
  const routeOf = (req: IncomingMessage & { originalUrl?: string }) => {
    const url = req.originalUrl ?? req.url ?? '/';
    const query = url.indexOf('?');
    const path = query === -1 ? url : url.slice(0, query);
    return templates.find(({ matches }) => matches(path))?.route ?? UNMATCHED_ROUTE;
  };
  const observe = (req: IncomingMessage, res: ServerResponse, started: bigint) => {
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    const method = METHODS.has(req.method ?? '') ? req.method! : 'other';
    const route = routeOf(req);
    metrics.requestDuration.observe({ method, route, status: String(res.statusCode) }, seconds);
    if (method === 'POST' && bookingRoutes.has(route)) {
      metrics.bookings.inc({ outcome: ServiceMetrics.bookingOutcome(res.statusCode, res.getHeader('idempotent-replayed') === 'true') });
    }
  };
  return (req, res, next) => {
    const started = process.hrtime.bigint();
    res.once('close', () => observe(req, res, started));
    next();
  };
}
