import express, { Router, type Express } from 'express';
import helmet from 'helmet';
import type { Logger } from 'pino';
import type { Clock } from '../platform/clock.js';
import type { ServerConfig } from './config.js';
import type { Db } from './db/connection.js';
import { AuthService } from './auth/auth.service.js';
import { KeyStore } from './auth/key.store.js';
import { TokenStore } from './auth/token.store.js';
import { requireAuth } from './auth/require-auth.js';
import { authRoutes } from './auth/auth.routes.js';
import { OrganizationStore } from './organization/organization.store.js';
import { organizationRoutes } from './organization/organization.routes.js';
import { WebsiteStore } from './website/website.store.js';
import { websiteRoutes } from './website/website.routes.js';
import { TreatmentStore } from './treatments/treatment.store.js';
import { treatmentRoutes } from './treatments/treatments.routes.js';
import { DentistStore } from './dentists/dentist.store.js';
import { dentistRoutes } from './dentists/dentists.routes.js';
import { AppointmentStore } from './appointments/appointment.store.js';
import { BookingService } from './appointments/booking.service.js';
import { appointmentRoutes } from './appointments/appointments.routes.js';
import { docsRoutes } from './docs/docs.routes.js';
import { demoImageRoutes } from './demo/demo-images.routes.js';
import { apiRateLimit, tokenRateLimit } from '../platform/rate-limits.js';
import { errorHandler, notFoundHandler } from '../platform/error-handler.js';
import { requestLogger } from '../platform/request-logger.js';

export interface AppDeps {
  db: Db;
  clock: Clock;
  config: Pick<ServerConfig, 'trustProxy' | 'apiRateLimit' | 'tokenRateLimit'>;
  logger: Logger;
}

/** Builds the reference /api/v1 server as an Express app; it never listens. */
export function createApp({ db, clock, config, logger }: AppDeps): Express {
  const auth = new AuthService(new KeyStore(db), new TokenStore(db), clock);
  const authenticated = [requireAuth(auth), apiRateLimit(config.apiRateLimit)];

  const api = Router();
  api.use(docsRoutes());
  api.use(authRoutes(auth, tokenRateLimit(config.tokenRateLimit)));
  api.use('/organization', ...authenticated, organizationRoutes(new OrganizationStore(db)));
  api.use('/website', ...authenticated, websiteRoutes(new WebsiteStore(db)));
  api.use('/treatments', ...authenticated, treatmentRoutes(new TreatmentStore(db)));
  api.use('/dentists', ...authenticated, dentistRoutes(new DentistStore(db)));
  api.use('/appointments', ...authenticated, appointmentRoutes(new BookingService(db, clock), new AppointmentStore(db)));

  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', config.trustProxy);
  app.set('etag', false);
  app.use(requestLogger(logger));
  app.use(
    helmet({
      // Demo pictures are embedded by clinic sites on other origins.
      crossOriginResourcePolicy: { policy: 'same-site' },
    }),
  );
  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  app.use('/api/v1', api);
  app.use('/assets/demo', demoImageRoutes());
  app.use(notFoundHandler);
  app.use(errorHandler);
  return app;
}
