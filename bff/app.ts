import express, { Router, type Express } from 'express';
import type { Logger } from 'pino';
import { systemClock, type Clock } from '../platform/clock.js';
import { requestLogger } from '../platform/request-logger.js';
import { notFoundHandler } from '../platform/error-handler.js';
import {
  DEFAULT_AVAILABILITY_MAX_SLOTS,
  DEFAULT_BOOKING_TIMEOUT_MS,
  DEFAULT_CLINIC_TIMEZONE,
  DEFAULT_STATUS_RATE_LIMIT,
  DEFAULT_UPSTREAM_MAX_BODY_BYTES,
  DEFAULT_UPSTREAM_READ_BUDGET,
  type BffConfig,
} from './config.js';
import { TokenManager } from './upstream/token-manager.js';
import { UpstreamClient } from './upstream/upstream-client.js';
import { ReadBudget } from './upstream/read-budget.js';
import { Readiness, reportingAnswers, upstreamProbe } from './health/readiness.js';
import { healthRoutes } from './health/health.routes.js';
import { ContentCache } from './content/content-cache.js';
import { contentRoutes } from './content/content.routes.js';
import { bookingRoutes } from './booking/booking.routes.js';
import { availabilityRoutes } from './availability/availability.routes.js';
import { ClinicFacts } from './availability/clinic-facts.js';
import { TakenSlots } from './availability/taken-slots.js';
import { bffDocsRoutes } from './docs/docs.routes.js';
import { apiCors } from './http/cors.js';
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
}

export interface Bff {
  app: Express;
  tokens: TokenManager;
  cache: ContentCache;
  /** What the BFF has learnt about taken slots (availability). */
  takenSlots: TakenSlots;
  /** `npm run dev` only (WIDGET_DEV_URL): /widget/* goes to Vite; main.ts attaches it for the HMR websocket. */
  widgetDevProxy?: WidgetDevProxy;
}

/** Builds the BFF as an Express app; it never listens. */
export function createBff({ config, logger, clock = systemClock }: BffDeps): Bff {
  const maxBodyBytes = config.upstreamMaxBodyBytes ?? DEFAULT_UPSTREAM_MAX_BODY_BYTES;
  const tokens = new TokenManager({
    upstreamUrl: config.upstreamUrl,
    appKey: config.appKey,
    appSecretKey: config.appSecretKey,
    timeoutMs: config.upstreamTimeoutMs,
    maxBodyBytes,
    clock,
  });
  const client = new UpstreamClient(config.upstreamUrl, config.appKey, tokens, config.upstreamTimeoutMs, maxBodyBytes);
  const readiness = new Readiness({ probe: upstreamProbe(client), clock });
  const upstream = reportingAnswers(client, readiness);
  const readBudget = new ReadBudget({ limit: config.upstreamReadBudget ?? DEFAULT_UPSTREAM_READ_BUDGET, clock });
  const cache = new ContentCache(upstream, { ...config.cache, clock, readBudget });

  const api = Router();
  api.use(apiCors(config.allowedOrigins));
  api.use(apiRateLimit(config.apiRateLimit));
  api.use(bffDocsRoutes());
  api.use(contentRoutes(cache, config.cache.ttlMs, config.cache.maxStaleMs));
  const facts = new ClinicFacts(cache, upstream, { ttlMs: config.cache.ttlMs, clock });
  const clinicTimeZone = config.clinicTimeZone ?? DEFAULT_CLINIC_TIMEZONE;
  const takenSlots = new TakenSlots({ maxSlots: config.availabilityMaxSlots ?? DEFAULT_AVAILABILITY_MAX_SLOTS, timeZone: clinicTimeZone, clock });
  api.use(availabilityRoutes(facts, takenSlots, clinicTimeZone, clock));
  api.use(
    bookingRoutes({
      upstream,
      referenceKey: config.referenceKey,
      bookingRateLimit: bookingRateLimit(config.bookingRateLimit),
      statusRateLimit: statusRateLimit(config.statusRateLimit ?? DEFAULT_STATUS_RATE_LIMIT),
      bookingTimeoutMs: config.bookingTimeoutMs ?? DEFAULT_BOOKING_TIMEOUT_MS,
      facts,
      taken: takenSlots,
      clock,
    }),
  );
  api.use(notFoundHandler);

  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', config.trustProxy);
  app.set('etag', false);
  // Order matters: the request logger first, so every answer is logged with its
  // final status; then each mount's security headers, before anything under it
  // can answer (a 404, a 429, an error); the error handler last.
  app.use(requestLogger(logger));
  app.use('/api', apiSecurityHeaders, api);
  const widgetDevProxy = config.widgetDevUrl ? createWidgetDevProxy(config.widgetDevUrl) : undefined;
  app.use('/widget', widgetSecurityHeaders, widgetDevProxy?.middleware ?? widgetRoutes(config.widgetDir), notFoundHandler);
  const demo = demoPage(new URL(config.upstreamUrl).origin);
  app.use(widgetDevProxy ? devPageSecurityHeaders : pageSecurityHeaders([demo.styleHash]));

  app.use(healthRoutes(readiness));

  app.use(demoRoutes(demo));
  app.use(notFoundHandler);
  app.use(bffErrorHandler);
  return { app, tokens, cache, takenSlots, widgetDevProxy };
}
