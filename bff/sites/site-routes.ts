import { Router, type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import { ApiError, notFound } from '../../contract/errors.js';
import { notFoundHandler } from '../../platform/error-handler.js';
import { tagRequestLog } from '../../platform/fast-http/request-logger.js';
import { apiSecurityHeaders, widgetSecurityHeaders } from '../http/security-headers.js';
import { apiCors } from '../http/cors.js';
import type { SiteOfAnswer } from '../http/rate-limits.js';
import type { GivingBackRateLimit } from '../../platform/rate-limits.js';
import { isSiteId } from './site-id.js';
import type { SiteRegistry } from './site-registry.js';
import type { SiteSettings } from './site-settings.js';

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Locals {
      /** The site a /s/{site_id} request is for, once found: what its limiters read. */
      site?: SiteSettings;
    }
  }
}

/** Answers a request of `/s/{site_id}/api` for the site's runtime (after the site was found, active). */
export type SiteApiHandler<Runtime> = (runtime: Runtime, req: Request, res: Response, next: NextFunction) => void;

/** What the shared per-site limiters read from an answer (perSiteRateLimit): the site these routes found. */
export const siteOfAnswer: SiteOfAnswer = {
  siteOf: (res: Response) => res.locals.site!.siteId,
  limitOf: (res: Response, kind) => res.locals.site!.limits[kind].limit,
};

export const SITE_SUSPENDED_MESSAGE = 'Online booking is unavailable for this clinic; please call the clinic';

/**
 * /s/{site_id}/api/* (the site's whole API) and /s/{site_id}/widget/* (the
 * same widget files as /widget: the widget finds its API at `../api` from its
 * own URL, so a site's embed is the two lines of one clinic's with the
 * site's path). Mounted at `/s/:siteId`.
 *
 * A malformed or unknown site id is 404 in the error body; a suspended site's
 * API is 403 `site_suspended`, while its widget still loads, so that it can
 * say booking is unavailable. Each found site's id is on every log line of
 * its requests (`site`). A request for a site the registry does not hold
 * passes `lookups` first (siteLookupRateLimit): per IP, unknown ids end in
 * 429 before they cost a read; one that finds its site gives its hit back.
 */
export function siteRoutes<Runtime>(
  registry: SiteRegistry<Runtime>,
  serveApi: SiteApiHandler<Runtime>,
  widget: RequestHandler,
  lookups: GivingBackRateLimit,
  publicOrigin?: string,
): Router {
  const sites = Router({ mergeParams: true });
  /** A suspended site's CORS, made once per registry entry: its pages must be able to read the 403. */
  const suspendedCors = new WeakMap<object, RequestHandler>();
  const corsOf = (found: { allowedOrigins: readonly string[] }) => {
    let cors = suspendedCors.get(found);
    if (!cors) suspendedCors.set(found, (cors = apiCors(found.allowedOrigins, publicOrigin)));
    return cors;
  };
  /** The requests `lookups` counted: one that finds its site gives its hit back. */
  const lookedUp = new WeakSet<Request>();
  /** Each registry entry's log tags, one object per site (tagRequestLog makes its access logger once per object). */
  const logTags = new WeakMap<object, { site: string }>();
  /** The site of the path, tagged on the request's log lines; throws the 404 of a malformed or unknown id. */
  const siteOf = async (req: Request<{ siteId: string }>) => {
    const { siteId } = req.params;
    const found = isSiteId(siteId) ? await registry.find(siteId) : undefined;
    if (!found) throw notFound('Site');
    if (lookedUp.has(req)) void lookups.giveBack(req);
    let tags = logTags.get(found);
    if (!tags) logTags.set(found, (tags = { site: siteId }));
    tagRequestLog(req, tags);
    return found;
  };
  const api: RequestHandler<{ siteId: string }> = async (req, res, next) => {
    const found = await siteOf(req);
    if (found.status === 'suspended') {
      // A preflight is answered (204) by CORS itself; anything else is the 403, with CORS headers.
      corsOf(found)(req, res, () => next(new ApiError('site_suspended', SITE_SUSPENDED_MESSAGE)));
      return;
    }
    res.locals.site = found.settings;
    serveApi(found.runtime, req, res, next);
  };
  /** A site held answers from memory; any other id may cost a read of the database, so it is counted first. */
  const lookup: RequestHandler<{ siteId: string }> = (req, res, next) => {
    if (registry.holds(req.params.siteId)) return next();
    lookedUp.add(req);
    lookups(req, res, next);
  };
  const widgetOfSite: RequestHandler<{ siteId: string }> = async (req, _res, next) => {
    await siteOf(req);
    next();
  };
  sites.use('/api', apiSecurityHeaders, lookup, api);
  sites.use('/widget', widgetSecurityHeaders, lookup, widgetOfSite, widget, notFoundHandler);
  sites.use(notFoundHandler);
  return sites;
}
