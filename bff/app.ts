import type { AppointmentStatusView } from '../contract/index.js';
import express, { type Express, type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import type { Logger } from 'pino';
import { systemClock, type Clock } from '../platform/clock.js';
import type { RedisLink } from '../platform/redis-link.js';
import type { SharedCounting } from '../platform/rate-limits.js';
import { requestLogger, tagRequestLog } from '../platform/fast-http/request-logger.js';
import { BFF_LOGGED_PATHS } from './http/logged-paths.js';
import { requestMetrics, type RequestMetricsOptions } from '../platform/metrics/request-metrics.js';
import type { BffMetrics } from './metrics/bff-metrics.js';
import { notFoundHandler } from '../platform/error-handler.js';
import { sendError } from '../platform/error-body.js';
import type { AnyOperation } from '../platform/operation.js';
import type { BffConfig } from './config.js';
import type { TokenManager } from './upstream/token-manager.js';
import { ConcurrencyGate } from './upstream/concurrency-gate.js';
import { healthRoutes } from './health/health.routes.js';
import type { ContentCache } from './content/content-cache.js';
import { ContentStore } from './content/content-store.js';
import type { TakenSlots } from './availability/taken-slots.js';
import {
  apiRateLimit,
  bookingRateLimit,
  changeBookingRateLimit,
  changeRateLimit,
  perSiteRateLimit,
  siteLookupRateLimit,
  statusRateLimit,
  unsubscribeRateLimit,
  type LimitKind,
} from './http/rate-limits.js';
import { bffErrorHandler } from './http/error-handler.js';
import { apiSecurityHeaders, devPageSecurityHeaders, pageSecurityHeaders, widgetSecurityHeaders } from './http/security-headers.js';
import { widgetRoutes } from './widget-hosting/widget.routes.js';
import type { WidgetDevProxy } from './widget-hosting/widget-dev-proxy.js';
import { demoPage, demoRoutes } from './demo/demo-page.js';
import { apiRouter, createSiteApi, sameOperations, sharedApiRouter, sharedPictureStore, type SiteApi, type SiteLimiters } from './site-api.js';
import type { PictureStore } from './pictures/picture-store.js';
import { DEFAULT_SITE, defaultSiteSettings, operationsTemplateSettings, siteSettingsOf, type SiteSettings } from './sites/site-settings.js';
import { SiteRegistry } from './sites/site-registry.js';
import { watchSiteChanges, type SiteChangesOptions } from './sites/site-changes.js';
import { siteOfAnswer, siteRoutes } from './sites/site-routes.js';
import type { SiteStore } from './sites/site.store.js';
import { OutboundPolicy, type HostResolver } from './outbound/outbound-policy.js';
import type { SitesDatabase } from './sites/sites-database.js';
import { ChangeStore } from './changes/change-store.js';
import { changeBookingOf } from './changes/change.routes.js';
import { UNSUBSCRIBE_PATH } from '../contract/rules/bff-api.js';
import { unsubscribeRoutes } from './patient-mail/unsubscribe-routes.js';
import { UnsubscribeStore } from './patient-mail/unsubscribe-store.js';
import { UNSUBSCRIBE_STYLE_HASH } from './patient-mail/unsubscribe-page.js';

export { PICTURE_LIMITS } from './site-api.js';

export interface BffDeps {
  config: BffConfig;
  logger: Logger;
  /** Time source for the token manager and cache, injected so tests move time. */
  clock?: Clock;
  /** REDIS_URL's connection: rate limits, taken slots and "any dentist" re-sends shared by every BFF of the clinic; absent, per process. */
  redis?: RedisLink;
  /** METRICS_PORT set: where this app counts (one BffMetrics per app, served by main.ts); absent, nothing is counted. */
  metrics?: BffMetrics;
  /**
   * The sites of the BFF's own database (SITE_SECRETS_KEY set, main.ts):
   * each served at /s/{site_id}/api and /s/{site_id}/widget. Absent, the BFF
   * serves only the env clinic (the default site), as before sites.
   */
  sites?: Pick<SiteStore, 'serving'>;
  /**
   * The BFF's own database (DATABASE_URL; main.ts always opens it): each
   * booking's record and patients' change requests, with their outbox
   * messages. Absent, as in the many tests that build a BFF for something
   * else: the BFF then records nothing, its status views carry no `changes`
   * and a change request is 503 database_unavailable. Not an in-memory
   * database opened in its place: messages queued there would never be
   * delivered, and a patient told "requested" would have asked no one.
   */
  database?: SitesDatabase;
  /** Called when a booking or change request has queued messages: the outbox worker's nudge (main.ts), so they go at once. */
  onMessagesQueued?: () => void;
  /** How outbound calls (pictures) resolve a host name; tests make a name resolve to loopback here. The system's resolver when absent. */
  resolveHost?: HostResolver;
  /**
   * `npm run dev` only (WIDGET_DEV_URL, made by main.ts with createWidgetDevProxy): /widget/* goes to Vite
   * instead of the built widget, and the pages' CSP lets Vite's client work.
   */
  widgetDevProxy?: WidgetDevProxy;
}

export interface Bff {
  app: Express;
  /** The default site's (the clinic of APP_KEY); absent, as are cache and takenSlots, in a BFF of sites only. */
  tokens?: TokenManager;
  cache?: ContentCache;
  /** What the BFF has learnt about the default site's taken slots (availability). */
  takenSlots?: TakenSlots;
  /** Every operation of /api, as the router serves them and the OpenAPI document describes them. */
  operations: readonly AnyOperation[];
  /** The content LRU every site shares (one byte bound). */
  contentStore: ContentStore;
  /** The sites of the database met so far; absent without `sites`. */
  siteRegistry?: SiteRegistry<SiteApi>;
  /**
   * A booking's status on a site as its clinic system has it now (a
   * reminder's check before it goes); undefined when the site or the booking
   * is gone. Throws when it cannot be read now (upstream down, site suspended).
   */
  statusOf(siteId: string, appointmentId: number): Promise<AppointmentStatusView | undefined>;
}

/** Builds the BFF as an Express app; it never listens. */
export function createBff({ config, logger, clock = systemClock, redis, metrics, sites, database, onMessagesQueued, resolveHost, widgetDevProxy }: BffDeps): Bff {
  const contentStore = new ContentStore({ ttlMs: config.cache.ttlMs, maxBytes: config.cache.maxBytes, clock });
  const outbound = new OutboundPolicy({ allowlist: config.outboundAllowlist, resolve: resolveHost });
  const pictureStore = sharedPictureStore(config, clock, outbound);
  // One gate for every site's token exchanges (TOKEN_EXCHANGES_MAX_IN_FLIGHT), the default site's included.
  const exchangeGate = new ConcurrencyGate(config.tokenExchangesMaxInFlight);
  const openApiDocument = {};
  const changeStore = database && new ChangeStore(database.db, onMessagesQueued);
  const build = (site: SiteSettings, limiters: SiteLimiters) =>
    createSiteApi({
      config,
      site,
      logger: logger.child({ site: site.siteId }),
      clock,
      redis,
      metrics,
      contentStore,
      pictureStore,
      limiters,
      exchangeGate,
      openApiDocument,
      changeStore,
    });

  // The env clinic, unless the BFF serves only sites: its limiters count per IP under its own Redis scope, as before sites.
  const defaultSite = defaultSiteSettings(config);
  const main = defaultSite && build(defaultSite, ownLimiters(defaultSite, config, redis));
  // Every site serves the same operations: they shape the one router of the sites, the metrics' route
  // templates and the document. A BFF of sites only takes them from a site it builds for that and never mounts.
  const template = main ? undefined : operationsTemplateSettings(config);
  const shape = main ?? build(template!, ownLimiters(template!, config));
  const operations = shape.operations;

  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', config.trustProxy);
  app.set('etag', false);
  // Order matters: the request logger first, so every answer is logged with its
  // final status; then each mount's security headers, before anything under it
  // can answer (a 404, a 429, an error); the error handler last.
  app.use(requestLogger(logger, BFF_LOGGED_PATHS));
  if (metrics) app.use(requestMetrics(metrics, bffRoutes(operations)));
  const widget = widgetRoutes(config.widgetDir);
  if (main) {
    app.use('/api', apiSecurityHeaders, tagDefaultSite, apiRouter(main));
    app.use('/widget', widgetSecurityHeaders, tagDefaultSite, widgetDevProxy?.middleware ?? widget, notFoundHandler);
  } else {
    app.use('/api', apiSecurityHeaders, noDefaultClinic);
    app.use('/widget', widgetSecurityHeaders, noDefaultClinic);
  }
  const siteRegistry = sites && servedSites(sites, config, logger, clock, redis, { contentStore, pictureStore }, (site, limiters) => {
    const built = build(site, limiters);
    sameOperations(shape, built);
    return built;
  });
  if (siteRegistry) {
    // Every database site's /api is one router, its handlers the request's site's own (res.locals.siteApi).
    const sitesApi = sharedApiRouter(shape, (res) => res.locals.siteApi!);
    const serveApi = (runtime: SiteApi, req: Request, res: Response, next: NextFunction) => {
      res.locals.siteApi = runtime;
      sitesApi(req, res, next);
    };
    // The built widget only: Vite's dev server (WIDGET_DEV_URL) knows nothing of /s/{site_id}.
    const lookups = siteLookupRateLimit(config.apiRateLimit, redis && { redis, keyPrefix: `${redis.keyPrefix}bff:sites:rl:` });
    app.use('/s/:siteId', siteRoutes(siteRegistry, serveApi, widget, lookups, config.publicOrigin));
  }
  if (database) {
    // Patients' one-click unsubscribe (decision 19): at the BFF's own origin, outside /api and every site's CORS and
    // origin check, since mail providers POST from their servers with no Origin. Its page's CSP allows its one style.
    const limiter = unsubscribeRateLimit(config.apiRateLimit, redis && { redis, keyPrefix: `${redis.keyPrefix}bff:mail:rl:` });
    app.use(UNSUBSCRIBE_PATH, pageSecurityHeaders([UNSUBSCRIBE_STYLE_HASH]), unsubscribeRoutes(new UnsubscribeStore(database.db, database.engine), limiter));
  }
  const demo = config.demoPage ? demoPage() : undefined;
  app.use(widgetDevProxy ? devPageSecurityHeaders : pageSecurityHeaders(demo ? [demo.styleHash] : []));

  app.use(healthRoutes(main?.readiness));

  // DEMO_PAGE (npm start, npm run dev): a clinic's own BFF answers / with 404 like any other path.
  if (demo) app.use(demoRoutes(demo));
  app.use(notFoundHandler);
  app.use(bffErrorHandler);
  return {
    app,
    tokens: main?.tokens,
    cache: main?.cache,
    takenSlots: main?.takenSlots,
    operations,
    contentStore,
    siteRegistry,
    async statusOf(siteId, appointmentId) {
      if (siteId === DEFAULT_SITE) return main?.statusOf(appointmentId);
      const found = await siteRegistry?.find(siteId);
      if (!found) return undefined;
      if (found.status !== 'active') throw new Error('site suspended: its bookings cannot be looked up now');
      return found.runtime.statusOf(appointmentId);
    },
  };
}

/**
 * A site changed by any instance or the CLI (created, deleted, suspended,
 * resumed, its origins or secret changed) is dropped here, with its cached
 * content, at the first look at the sites table after the change (every
 * SITE_POLL_MS; at once when the CLI announces it on REDIS_URL): each look
 * checks every site held against the table (SiteRegistry.reconcile). Its
 * next request builds it afresh from the database. Nothing to follow when
 * the BFF serves no sites.
 */
export function followSiteChanges(
  bff: Pick<Bff, 'siteRegistry'>,
  options: SiteChangesOptions,
): { close(): Promise<void> } {
  const registry = bff.siteRegistry;
  if (!registry) return { close: async () => undefined };
  return watchSiteChanges(
    options,
    (siteId) => registry.drop(siteId),
    (revisions) => registry.reconcile(revisions),
  );
}

/** One object for every request of the default site (tagRequestLog makes its access logger once). */
const DEFAULT_SITE_TAGS = { site: DEFAULT_SITE };

/** The default site's requests: `site` on their log lines too. */
const tagDefaultSite: RequestHandler = (req, _res, next) => {
  tagRequestLog(req, DEFAULT_SITE_TAGS);
  next();
};

/** A site's own limiters (the default site's), counted under its Redis scope with REDIS_URL. */
function ownLimiters(site: SiteSettings, config: BffConfig, redis?: RedisLink): SiteLimiters {
  const shared = redis && { redis, keyPrefix: `${redis.keyPrefix}bff:${site.redisScope}:rl:` };
  return {
    api: apiRateLimit(site.limits.api, shared),
    booking: bookingRateLimit(site.limits.booking, shared),
    status: statusRateLimit(site.limits.status, shared),
    change: changeRateLimit(config.changeRateLimit, shared),
    changeBooking: changeBookingRateLimit(config.changeBookingRateLimit, changeBookingOf, shared),
  };
}

/**
 * A BFF of sites only (SITE_SECRETS_KEY, no APP_KEY) serves no clinic at
 * /api or /widget: a 404 in the error body that says where its sites are,
 * so an embed copied from a one-clinic set-up says what to change.
 */
const noDefaultClinic: RequestHandler = (req, res) => {
  sendError(res, 'not_found', `No clinic is served at ${req.baseUrl}: this BFF serves only its sites, at /s/{site_id}${req.baseUrl}`);
};

/**
 * The sites of the database, each built on its first request: their per-IP
 * limiters are one per kind and window for all of them (keyed by site and
 * IP, REDIS_URL's count under `bff:sites:rl:`), the change requests' two the
 * BFF's settings for every site (keyed by site and IP, and by site and
 * booking), and a dropped site's cached content and pictures go with it.
 */
function servedSites(
  store: Pick<SiteStore, 'serving'>,
  config: BffConfig,
  logger: Logger,
  clock: Clock,
  redis: RedisLink | undefined,
  caches: { contentStore: ContentStore; pictureStore: PictureStore },
  build: (site: SiteSettings, limiters: SiteLimiters) => SiteApi,
): SiteRegistry<SiteApi> {
  const shared: SharedCounting | undefined = redis && { redis, keyPrefix: `${redis.keyPrefix}bff:sites:rl:` };
  const limiters = new Map<string, ReturnType<typeof perSiteRateLimit>>();
  const limiterOf = (kind: LimitKind, windowMs: number) => {
    const key = `${kind}:${windowMs}`;
    let limiter = limiters.get(key);
    if (!limiter) limiters.set(key, (limiter = perSiteRateLimit(kind, windowMs, siteOfAnswer, shared && { ...shared, keyPrefix: `${shared.keyPrefix}w${windowMs}:` })));
    return limiter;
  };
  const change = changeRateLimit(config.changeRateLimit, shared, siteOfAnswer.siteOf);
  const changeBooking = changeBookingRateLimit(config.changeBookingRateLimit, changeBookingOf, shared);
  return new SiteRegistry<SiteApi>({
    store,
    settingsOf: (site, credentials, revision) => siteSettingsOf(site, credentials, config, revision),
    build: (site) =>
      build(site, {
        api: limiterOf('api', site.limits.api.windowMs),
        booking: limiterOf('booking', site.limits.booking.windowMs),
        status: limiterOf('status', site.limits.status.windowMs),
        change,
        changeBooking,
      }),
    onDrop: (siteId) => {
      caches.contentStore.dropSite(siteId);
      caches.pictureStore.dropSite(siteId);
    },
    clock,
    logger,
  });
}

/**
 * The route templates the BFF answers, as metrics label them: its API's
 * operations, the widget's files, health, the demo page. A site's paths are
 * labelled by their template (`/s/:site/api/...`), never by the site's id:
 * a thousand sites make no more series than one.
 */
function bffRoutes(operations: readonly AnyOperation[]): RequestMetricsOptions {
  const booking = operations.find((op) => op.id === 'bookAppointment');
  const api = operations.map((op) => `/api${op.path}`);
  return {
    routes: [
      ...api,
      '/widget/:file',
      ...api.map((path) => `/s/:site${path}`),
      '/s/:site/widget/:file',
      `${UNSUBSCRIBE_PATH}/:token`,
      '/healthz',
      '/readyz',
      '/',
    ],
    bookingRoute: booking ? [`/api${booking.path}`, `/s/:site/api${booking.path}`] : undefined,
  };
}
