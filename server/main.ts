import { createApp } from './app.js';
import { systemClock } from '../platform/clock.js';
import { loadServerConfig } from './config.js';
import { openDatabase } from './db/connection.js';
import { createLogger } from '../platform/logger.js';
import { serve } from '../platform/serve.js';

/** Starts the reference server: reads config, opens the database, listens, drains on SIGTERM. */
async function main(): Promise<void> {
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
}

main().catch((error: unknown) => {
  console.error(`clinic API could not start: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
