import { systemClock } from '../platform/clock.js';
import { createLogger } from '../platform/logger.js';
import { runMain } from '../platform/run-main.js';
import { openRedis } from '../platform/redis-link.js';
import { serve } from '../platform/serve.js';
import { serveMetrics } from '../platform/metrics/metrics-server.js';
import { startTracing } from '../platform/tracing/start-tracing.js';
import { createBff, followSiteChanges } from './app.js';
import { BffMetrics } from './metrics/bff-metrics.js';
import { loadBffConfig } from './config.js';
import { openSitesDatabase } from './sites/sites-database.js';
import { SiteSecrets } from './sites/site-secrets.js';
import { SiteStore } from './sites/site.store.js';
import { createWidgetDevProxy } from './widget-hosting/widget-dev-proxy.js';
import { clinicDelivery } from './outbox/clinic-delivery.js';

/** Starts the BFF: reads config (one line naming a bad setting), listens, drains on SIGTERM. */
runMain('BFF', async () => {
  const config = loadBffConfig();
  const logger = createLogger(config.logLevel);
  // OTEL_EXPORTER_OTLP_ENDPOINT (also from .env): before anything that makes spans is built. A browser's
  // traceparent is not continued: each request starts a trace of the BFF's own (docs/security.md, "Traces").
  await startTracing('clinic-bff', 'none');
  // npm run dev (WIDGET_DEV_URL): the widget from Vite, through a development package loaded only then, before
  // anything is opened, so that a production install without it stops here with one line.
  const widgetDevProxy = config.widgetDevUrl ? await createWidgetDevProxy(config.widgetDevUrl) : undefined;
  // REDIS_URL: limits and taken slots shared by every BFF; a Redis down at start is one warning, not a failed start.
  const redis = await openRedis(config, logger);
  const metrics = config.metrics && new BffMetrics();
  // The BFF's own database (DATABASE_URL): the outbox and change requests always, the sites with SITE_SECRETS_KEY.
  const database = await openSitesDatabase(config.databaseUrl);
  const store = config.sites && new SiteStore(database.db, new SiteSecrets(config.sites.secretsKey!, config.sites.previousSecretsKey));
  // The outbox's worker: what bookings and change requests queue for the clinic goes out at once (OUTBOX_WORKER).
  // A reminder checks its booking's status before it goes: through the BFF's own sites, made just below.
  const delivery = clinicDelivery({
    config,
    database,
    sites: store,
    logger,
    clock: systemClock,
    metrics: metrics || undefined,
    statusOf: (siteId, appointmentId) => bff.statusOf(siteId, appointmentId),
  });
  const bff = createBff({
    config,
    logger,
    clock: systemClock,
    redis,
    metrics,
    sites: store,
    database,
    onMessagesQueued: () => delivery.worker.nudge(),
    widgetDevProxy,
  });
  // Before the BFF's own port: a metrics port it cannot take fails the start, before anything could see it healthy.
  if (metrics && config.metrics) await serveMetrics(metrics.registry, config.metrics, logger);
  // Changes made by the CLI or another instance drop the site here within seconds (at once with REDIS_URL).
  const changes = store && followSiteChanges(bff, { store, redis, logger });
  const server = serve(bff.app, {
    name: 'BFF',
    port: config.port,
    host: config.host,
    logger,
    shutdownTimeoutMs: config.shutdownTimeoutMs,
    onDrained: async () => {
      await changes?.close();
      // Deliveries in flight end (or are left to their leases) before the database closes.
      await delivery.close();
      await redis?.close();
      await database.close();
    },
  });
  delivery.worker.start();
  // Vite's HMR websocket goes through the widget proxy too.
  widgetDevProxy?.attach(server);
});
