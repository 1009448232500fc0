import { createHash } from 'node:crypto';
import express, { Router, type Express } from 'express';
import type { Logger } from 'pino';
import { systemClock, type Clock } from '../platform/clock.js';
import type { RedisLink } from '../platform/redis-link.js';
import { requestLogger } from '../platform/fast-http/request-logger.js';
import { requestMetrics, type RequestMetricsOptions } from '../platform/metrics/request-metrics.js';
import type { BffMetrics } from './metrics/bff-metrics.js';
import { notFoundHandler } from '../platform/error-handler.js';
import { addOperations, operationTable, type AnyOperation } from '../platform/operation.js';
import type { BffConfig } from './config.js';
import { TokenManager } from './upstream/token-manager.js';
import { UpstreamClient } from './upstream/upstream-client.js';
import { ConcurrencyGate } from './upstream/concurrency-gate.js';
import { ReadBudget } from './upstream/read-budget.js';
import { Readiness, reportingAnswers, upstreamProbe } from './health/readiness.js';
import { healthRoutes } from './health/health.routes.js';
import { ContentCache } from './content/content-cache.js';
import { contentOperations } from './content/content.routes.js';
import { bookingOperations } from './booking/booking.routes.js';
import { BookingService } from './booking/booking.service.js';
import { BookingFacts } from './booking/booking-facts.js';
import { MemoryDentistMemory, SharedDentistMemory, type DentistMemory } from './booking/dentist-memory.js';
import { availabilityOperations } from './availability/availability.routes.js';
import { availabilityDaysOperations } from './availability/availability-days.routes.js';
import { ClinicFacts } from './availability/clinic-facts.js';
import { MemoryTakenSlots, type TakenSlots } from './availability/taken-slots.js';
import { SharedTakenSlots } from './availability/shared-taken-slots.js';
import { docsOperation } from './docs/docs.routes.js';
import { pictureOperations } from './pictures/pictures.routes.js';
import { PictureStore } from './pictures/picture-store.js';
import { apiCors } from './http/cors.js';
import { RefusedOrigins } from './http/refused-origins.js';
import { apiRateLimit, bookingRateLimit, statusRateLimit } from './http/rate-limits.js';
import { bffErrorHandler } from './http/error-handler.js';
import { apiSecurityHeaders, devPageSecurityHeaders, pageSecurityHeaders, widgetSecurityHeaders } from './http/security-headers.js';
import { widgetRoutes } from './widget-hosting/widget.routes.js';
import { createWidgetDevProxy, type WidgetDevProxy } from './widget-hosting/widget-dev-proxy.js';
import { demoPage, demoRoutes } from './demo/demo-page.js';

export interface BffDeps {
  config: BffConfig;
  logger: Logger;
  /** Time source for the token manager and cache, injected so tests move time. */
  clock?: Clock;
  /** REDIS_URL's connection: rate limits, taken slots and "any dentist" re-sends shared by every BFF of the clinic; absent, per process. */
  redis?: RedisLink;
  /** METRICS_PORT set: where this app counts (one BffMetrics per app, served by main.ts); absent, nothing is counted. */
  metrics?: BffMetrics;
}

export interface Bff {
  app: Express;
  tokens: TokenManager;
  cache: ContentCache;
  /** What the BFF has learnt about taken slots (availability). */
  takenSlots: TakenSlots;
  /** Every operation of /api, as the router serves them and the OpenAPI document describes them. */
  operations: readonly AnyOperation[];
  /** `npm run dev` only (WIDGET_DEV_URL): /widget/* goes to Vite; main.ts attaches it for the HMR websocket. */
  widgetDevProxy?: WidgetDevProxy;
}

/** The clinic's pictures (/api/pictures): at most 1 MiB each, 16 MiB in all in memory. */
export const PICTURE_LIMITS = { maxPictureBytes: 1024 * 1024, maxBytes: 16 * 1024 * 1024 };

/** Builds the BFF as an Express app; it never listens. */
export function createBff({ config, logger, clock = systemClock, redis, metrics }: BffDeps): Bff {
  const maxBodyBytes = config.upstreamMaxBodyBytes;
  const tokens = new TokenManager({
    upstreamUrl: config.upstreamUrl,
    appKey: config.appKey,
    appSecretKey: config.appSecretKey,
    timeoutMs: config.upstreamTimeoutMs,
    maxBodyBytes,
    clock,
    logger,
    observer: metrics,
    // One site today: its own exchange gate; with many sites, one gate is shared by all of their token managers.
    exchangeGate: new ConcurrencyGate(config.tokenExchangesMaxInFlight),
    // REDIS_URL: the BFFs of this clinic do one token exchange between them, not one each.
    shared: redis,
  });
  const upstreamGate = new ConcurrencyGate(config.upstreamMaxInFlightPerSite);
  const client = new UpstreamClient(config.upstreamUrl, config.appKey, tokens, config.upstreamTimeoutMs, maxBodyBytes, logger, metrics, upstreamGate);
  const readiness = new Readiness({ probe: upstreamProbe(client), clock });
  const upstream = reportingAnswers(client, readiness);
  const readBudget = new ReadBudget({ limit: config.upstreamReadBudget, clock });
  const cache = new ContentCache(upstream, { ...config.cache, clock, readBudget, observer: metrics });

  // REDIS_URL: one count per limiter, one set of taken slots and one dentist per patient key for every BFF of this clinic.
  const shared = redis && { redis, keyPrefix: `${clinicNamespace(redis, config.appKey)}rl:` };

  const api = Router();
  api.use(apiCors(config.allowedOrigins, config.publicOrigin, new RefusedOrigins(logger, clock)));
  api.use(apiRateLimit(config.apiRateLimit, shared));
  // The content first: the busiest paths, answered in one lookup without passing through the router's other routes.
  const content = contentOperations(cache, config.cache.ttlMs, config.cache.maxStaleMs);
  api.use(operationTable(content));
  const facts = new ClinicFacts(cache);
  const clinicTimeZone = config.clinicTimeZone;
  const learnt = new MemoryTakenSlots({ maxSlots: config.availabilityMaxSlots, timeZone: clinicTimeZone, clock });
  const takenSlots: TakenSlots = redis ? new SharedTakenSlots(redis, `${clinicNamespace(redis, config.appKey)}taken:`, learnt) : learnt;
  const triedDentists = new MemoryDentistMemory(clock);
  const dentistMemory: DentistMemory = redis ? new SharedDentistMemory(redis, `${clinicNamespace(redis, config.appKey)}dentist:`, triedDentists) : triedDentists;
  const keysBooked = new MemoryDentistMemory(clock);
  const acceptedKeys: DentistMemory = redis ? new SharedDentistMemory(redis, `${clinicNamespace(redis, config.appKey)}accepted:`, keysBooked) : keysBooked;
  const availability = { timeZone: clinicTimeZone, rules: config.bookingRules, clock };
  const routed = [
    ...availabilityOperations(facts, takenSlots, availability),
    ...availabilityDaysOperations(facts, takenSlots, availability),
    ...bookingOperations({
      bookings: new BookingService({
        upstream,
        facts: new BookingFacts(cache, upstream, { ttlMs: config.cache.ttlMs, clock }),
        timeZone: clinicTimeZone,
        rules: config.bookingRules,
        taken: takenSlots,
        dentistMemory,
        acceptedKeys,
        clock,
        bookingTimeoutMs: config.bookingTimeoutMs,
      }),
      upstream,
      referenceKey: config.referenceKey,
      previousReferenceKeys: config.previousReferenceKeys,
      bookingRateLimit: bookingRateLimit(config.bookingRateLimit, shared),
      statusRateLimit: statusRateLimit(config.statusRateLimit, shared),
    }),
  ];
  routed.push(...pictureOperations(cache, new PictureStore({ ...PICTURE_LIMITS, ttlMs: config.cache.ttlMs, timeoutMs: config.upstreamTimeoutMs, clock }), Math.floor(config.cache.ttlMs / 1000)));
  const docs = docsOperation([...content, ...routed]);
  addOperations(api, [...routed, docs]);
  const operations = [...content, ...routed, docs];
  api.use(notFoundHandler);

  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', config.trustProxy);
  app.set('etag', false);
  // Order matters: the request logger first, so every answer is logged with its
  // final status; then each mount's security headers, before anything under it
  // can answer (a 404, a 429, an error); the error handler last.
  app.use(requestLogger(logger));
  if (metrics) app.use(requestMetrics(metrics, bffRoutes(operations)));
  app.use('/api', apiSecurityHeaders, api);
  const widgetDevProxy = config.widgetDevUrl ? createWidgetDevProxy(config.widgetDevUrl) : undefined;
  app.use('/widget', widgetSecurityHeaders, widgetDevProxy?.middleware ?? widgetRoutes(config.widgetDir), notFoundHandler);
  const demo = config.demoPage ? demoPage() : undefined;
  app.use(widgetDevProxy ? devPageSecurityHeaders : pageSecurityHeaders(demo ? [demo.styleHash] : []));

  app.use(healthRoutes(readiness));

  // DEMO_PAGE (npm start, npm run dev): a clinic's own BFF answers / with 404 like any other path.
  if (demo) app.use(demoRoutes(demo));
  app.use(notFoundHandler);
  app.use(bffErrorHandler);
  return { app, tokens, cache, takenSlots, operations, widgetDevProxy };
}

/** The route templates the BFF answers, as metrics label them: its API's operations, the widget's files, health, the demo page. */
function bffRoutes(operations: readonly AnyOperation[]): RequestMetricsOptions {
  const booking = operations.find((op) => op.id === 'bookAppointment');
  return {
    routes: [...operations.map((op) => `/api${op.path}`), '/widget/:file', '/healthz', '/readyz', '/'],
    bookingRoute: booking && `/api${booking.path}`,
  };
}

/**
 * This clinic's keys in the shared Redis: the BFFs of one clinic (one app key)
 * share limits and taken slots, and BFFs of other clinics on the same Redis
 * never meet them (dentist ids of two clinics may coincide). The app key enters
 * only as a hash, so no key names a credential.
 */
function clinicNamespace(redis: RedisLink, appKey: string): string {
  return `${redis.keyPrefix}bff:${createHash('sha256').update(appKey).digest('hex').slice(0, 16)}:`;
}
