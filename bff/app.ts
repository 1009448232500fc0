import express, { Router, type Express } from 'express';
import helmet from 'helmet';
import type { Logger } from 'pino';
import { systemClock, type Clock } from '../platform/clock.js';
import { requestLogger } from '../platform/request-logger.js';
import { notFoundHandler } from '../platform/error-handler.js';
import type { BffConfig } from './config.js';
import { TokenManager } from './upstream/token-manager.js';
import { UpstreamClient } from './upstream/upstream-client.js';
import { ContentCache } from './content/content-cache.js';
import { contentRoutes } from './content/content.routes.js';
import { bookingRoutes } from './booking/booking.routes.js';
import { apiCors } from './http/cors.js';
import { apiRateLimit, bookingRateLimit } from './http/rate-limits.js';
import { bffErrorHandler } from './http/error-handler.js';
import { widgetRoutes } from './widget-hosting/widget.routes.js';
import { DEMO_CSS, DEMO_PAGE } from './demo/demo-page.js';

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
}

/** Builds the BFF as an Express app; it never listens. */
export function createBff({ config, logger, clock = systemClock }: BffDeps): Bff {
  const tokens = new TokenManager({
    upstreamUrl: config.upstreamUrl,
    appKey: config.appKey,
    appSecretKey: config.appSecretKey,
    timeoutMs: config.upstreamTimeoutMs,
    clock,
  });
  const upstream = new UpstreamClient(config.upstreamUrl, config.appKey, tokens, config.upstreamTimeoutMs);
  const cache = new ContentCache(upstream, { ...config.cache, clock });

  const api = Router();
  api.use(apiCors(config.allowedOrigins));
  api.use(apiRateLimit(config.apiRateLimit));
  api.use(contentRoutes(cache, config.cache.ttlMs, config.cache.maxStaleMs));
  api.use(bookingRoutes(upstream, config.referenceKey, bookingRateLimit(config.bookingRateLimit)));
  api.use(notFoundHandler);

  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', config.trustProxy);
  app.set('etag', false);
  app.use(requestLogger(logger));

  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  app.get('/readyz', async (_req, res) => {
    try {
      await tokens.get();
      res.json({ status: 'ready' });
    } catch {
      res.status(503).json({ status: 'upstream unavailable' });
    }
  });

  app.use('/api', api);
  app.use('/widget', widgetRoutes(config.widgetDir));
  app.use(
    helmet({
      contentSecurityPolicy: {
        directives: {
          // The demo clinic's pictures come from the API server's origin.
          'img-src': ["'self'", 'data:', 'https:', 'http:'],
        },
      },
    }),
  );
  app.get('/', (_req, res) => {
    res.type('html').set('Cache-Control', 'no-cache').send(DEMO_PAGE);
  });
  app.get('/demo.css', (_req, res) => {
    res.type('css').set('Cache-Control', 'public, max-age=300').send(DEMO_CSS);
  });
  app.use(notFoundHandler);
  app.use(bffErrorHandler);
  return { app, tokens, cache };
}
