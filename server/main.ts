import { systemClock } from '../platform/clock.js';
import { createLogger } from '../platform/logger.js';
import { runMain } from '../platform/run-main.js';
import { serve } from '../platform/serve.js';
import { createApp } from './app.js';
import { loadServerConfig } from './config.js';
import { openDatabase } from './db/connection.js';
import { openRedis } from '../platform/redis-link.js';

/** Starts the reference server: reads config, opens the database, listens, drains on SIGTERM. */
runMain('clinic API', async () => {
  const config = loadServerConfig();
  const logger = createLogger(config.logLevel);
  const db = await openDatabase(config.databaseUrl, {
    synchronous: config.sqliteSynchronous,
    poolSize: config.databasePoolSize,
    connectTimeoutMs: config.databaseConnectTimeoutMs,
    statementTimeoutMs: config.databaseStatementTimeoutMs,
    // Bookings, the server's only writes that must survive a power cut, all go through group commit.
    syncInBackground: true,
  });
  // REDIS_URL: rate limits shared by every instance; a Redis down at start is one warning, not a failed start.
  const redis = await openRedis(config, logger);
  serve(createApp({ db, clock: systemClock, config, logger, redis }), {
    name: 'clinic API',
    port: config.port,
    host: config.host,
    logger,
    shutdownTimeoutMs: config.shutdownTimeoutMs,
    onDrained: async () => {
      await db.destroy();
      await redis?.close();
    },
  });
});
