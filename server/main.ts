import { systemClock } from '../platform/clock.js';
import { createLogger } from '../platform/logger.js';
import { runMain } from '../platform/run-main.js';
import { serve } from '../platform/serve.js';
import { serveMetrics } from '../platform/metrics/metrics-server.js';
import { ServiceMetrics } from '../platform/metrics/service-metrics.js';
import { createApp } from './app.js';
import { loadServerConfig } from './config.js';
import { openDatabase } from './db/connection.js';
import { scheduleRetention } from './appointments/retention.js';
import { openRedis } from '../platform/redis-link.js';
import { startTracing } from '../platform/tracing/start-tracing.js';

/** Starts the reference server: reads config, opens the database, listens, drains on SIGTERM. */
runMain('clinic API', async () => {
  const config = loadServerConfig();
  const logger = createLogger(config.logLevel);
  // OTEL_EXPORTER_OTLP_ENDPOINT: before anything that makes spans is built. A caller's traceparent (the BFF's,
  // an integrator's) is continued, so one booking is one trace (docs/security.md, "Traces").
  await startTracing('clinic-api', 'traceparent');
  // Bookings, the server's only writes that must survive a power cut, all go through group commit.
  const database = await openDatabase(config.database);
  // REDIS_URL: rate limits shared by every instance; a Redis down at start is one warning, not a failed start.
  const redis = await openRedis(config, logger);
  // RETENTION_DAYS: patient data past it is erased now, then daily; the timer never keeps the process alive.
  const retention = scheduleRetention({ database, clock: systemClock, retentionDays: config.retentionDays, logger });
  const metrics = config.metrics && new ServiceMetrics();
  // Before the API's own port: a metrics port it cannot take fails the start, before anything could see it healthy.
  if (metrics && config.metrics) await serveMetrics(metrics.registry, config.metrics, logger);
  serve(createApp({ database, clock: systemClock, config, logger, redis, metrics }), {
    name: 'clinic API',
    port: config.port,
    host: config.host,
    logger,
    shutdownTimeoutMs: config.shutdownTimeoutMs,
    onDrained: async () => {
      await retention.stop();
      await database.kysely.destroy();
      await redis?.close();
    },
  });
});
