import express, { Router, type Express } from 'express';
import helmet from 'helmet';
import type { Logger } from 'pino';
import type { Clock } from '../platform/clock.js';
import type { RedisLink } from '../platform/redis-link.js';
import type { ServerConfig } from './config.js';
import type { Database } from './db/database.js';
import { GroupCommitter } from './db/group-commit.js';
import { Stores } from './stores.js';
import { AuthService } from './auth/auth.service.js';
import { SecretHasher } from './auth/secret-hash.js';
import { requireAuth } from './auth/require-auth.js';
import { authOperations } from './auth/auth.routes.js';
import { credentialPrefixes } from './auth/credential-prefixes.js';
import { organizationOperations } from './organization/organization.routes.js';
import { websiteOperations } from './website/website.routes.js';
import { treatmentOperations } from './treatments/treatments.routes.js';
import { dentistOperations } from './dentists/dentists.routes.js';
import { BookingService } from './appointments/booking.service.js';
import { appointmentOperations } from './appointments/appointments.routes.js';
import { docsRoutes } from './docs/docs.routes.js';
import { demoImageRoutes } from './demo/demo-images.routes.js';
import { apiRateLimit, tokenRateLimits } from './auth/rate-limits.js';
import { AllowedMethods } from './http/allowed-methods.js';
import { compressionWhenAccepted } from './http/compression.js';
import { errorHandler, notFoundHandler } from '../platform/error-handler.js';
import { requestLogger } from '../platform/fast-http/request-logger.js';
import { SERVER_LOGGED_PATHS } from './http/logged-paths.js';
import { requestMetrics, type RequestMetricsOptions } from '../platform/metrics/request-metrics.js';
import type { ServiceMetrics } from '../platform/metrics/service-metrics.js';
import { addOperations, type AnyOperation } from '../platform/operation.js';
import { databaseErrors } from './http/database-errors.js';
import { DatabaseReadiness, databaseProbe } from './health/database-readiness.js';
import { addHealthRoutes } from './health/health.routes.js';

export interface AppDeps {
  /** The open database (openDatabase): its engine decides the locks and how bookings commit. */
  database: Database;
  clock: Clock;
  config: Pick<ServerConfig, 'trustProxy' | 'apiRateLimit' | 'tokenRateLimit' | 'tokenFailureRateLimit'>;
  logger: Logger;
  /** REDIS_URL's connection: rate limits shared by every server instance; absent, each process counts alone. */
  redis?: RedisLink;
  /** METRICS_PORT set: where this app counts (served by main.ts); absent, nothing is counted. */
  metrics?: ServiceMetrics;
  /** How app secrets are checked; absent, at SECRET_HASH_COST. A test server passes its seeds' cost, so its decoy costs what they do. */
  secretHasher?: SecretHasher;
}

/** Builds the reference /api/v1 server as an Express app; it never listens. */
export function createApp({ database, clock, config, logger, redis, metrics, secretHasher }: AppDeps): Express {
  // Everything this app keeps in memory (kept reads, parsed settings, the clinics' "now") is made here: its own.
  const stores = Stores.of(database);
  const auth = new AuthService(stores.keys, stores.tokens, clock, (secretHasher ?? new SecretHasher()).prepare());
  const bookings = new BookingService(stores, new GroupCommitter(database), clock);
  const shared = redis && { redis, keyPrefix: `${redis.keyPrefix}server:rl:` };
  const authenticated = [requireAuth(auth), apiRateLimit(config.apiRateLimit, shared)];

  // Every /api/v1 operation, each declared once beside its handler: the router and the OpenAPI document read this list.
  const operations = [
    ...organizationOperations(stores.organizations),
    ...websiteOperations(stores.websites),
    ...treatmentOperations(stores.treatments),
    ...dentistOperations(stores.dentists),
    ...appointmentOperations(bookings, stores.appointments),
    // Last, so the resources' requests, the busiest, pass none of its rate limits' layers on the way.
    ...authOperations(auth, tokenRateLimits({ issued: config.tokenRateLimit, failed: config.tokenFailureRateLimit }, shared)),
  ];

  const api = Router();
  // Credentials, then the per-key limit, once for every resource prefix (one layer each, not one per operation).
  api.use(credentialPrefixes(operations), ...authenticated);
  // The operations on this router itself, not each resource under a router of its own: one router fewer per request.
  addOperations(api, operations);
  // After the operations, so their requests pass no layer of the docs on the way.
  api.use(docsRoutes(operations));

  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', config.trustProxy);
  app.set('etag', false);
  app.use(requestLogger(logger, SERVER_LOGGED_PATHS));
  if (metrics) app.use(requestMetrics(metrics, serverRoutes(operations)));
  app.use(compressionWhenAccepted());
  app.use(
    helmet({
      // Demo pictures are embedded by clinic sites on other origins.
      crossOriginResourcePolicy: { policy: 'same-site' },
    }),
  );

  // 405 and OPTIONS for every path the routes below answer, before any credential check.
  const allowedMethods = new AllowedMethods();
  app.use(allowedMethods.check);
  app.use('/api/v1', api);
  // After the API, so its requests, the busiest, pass no layer of these on the way.
  addHealthRoutes(app.router, new DatabaseReadiness(databaseProbe(database)));
  app.use('/assets/demo', demoImageRoutes());
  allowedMethods.learnFrom(app.router);
  app.use(notFoundHandler);
  app.use(databaseErrors(logger, clock));
  app.use(errorHandler);
  return app;
}

/** The route templates the server answers, as metrics label them: /api/v1's operations, its docs, health, the demo pictures. */
function serverRoutes(operations: readonly AnyOperation[]): RequestMetricsOptions {
  const booking = operations.find((op) => op.id === 'bookAppointment');
  return {
    routes: [...operations.map((op) => `/api/v1${op.path}`), '/api/v1/docs', '/api/v1/openapi.json', '/healthz', '/readyz', '/assets/demo/:file'],
    bookingRoute: booking && `/api/v1${booking.path}`,
  };
}
