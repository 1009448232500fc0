import { systemClock } from '../platform/clock.js';
import { createLogger } from '../platform/logger.js';
import { runMain } from '../platform/run-main.js';
import { serve } from '../platform/serve.js';
import { createApp } from './app.js';
import { loadServerConfig } from './config.js';
import { openDatabase } from './db/connection.js';

/** Starts the reference server: reads config, opens the database, listens, drains on SIGTERM. */
runMain('clinic API', async () => {
  const config = loadServerConfig();
  const logger = createLogger(config.logLevel);
  const db = await openDatabase(config.databaseUrl, { synchronous: config.sqliteSynchronous });
  serve(createApp({ db, clock: systemClock, config, logger }), {
    name: 'clinic API',
    port: config.port,
    host: config.host,
    logger,
    shutdownTimeoutMs: config.shutdownTimeoutMs,
    onDrained: () => db.destroy(),
  });
});
