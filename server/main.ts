import type { Server } from 'node:http';
import { createApp } from './app.js';
import { systemClock } from './clock.js';
import { loadServerConfig } from './config.js';
import { openDatabase } from './db/connection.js';
import { createLogger } from './logger.js';

/** Starts the reference server: reads config, opens the database, listens, drains on SIGTERM. */
async function main(): Promise<void> {
  const config = loadServerConfig();
  const logger = createLogger(config.logLevel);
  const db = await openDatabase(config.databaseUrl, { synchronous: config.sqliteSynchronous });
  const app = createApp({ db, clock: systemClock, config, logger });

  const server: Server = app.listen(config.port, config.host);
  server.on('listening', () => {
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : config.port;
    logger.info({ host: config.host, port }, `clinic API listening on http://${config.host}:${port}/api/v1`);
  });
  server.on('error', (error: NodeJS.ErrnoException) => {
    const reason = error.code === 'EADDRINUSE' ? `port ${config.port} is already in use` : error.message;
    console.error(`clinic API could not start: ${reason}`);
    process.exit(1);
  });

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'draining in-flight requests');
    // In-flight requests finish. Keep-alive sockets are closed as soon as they
    // fall idle, including those whose last response ends after close().
    server.close(() => {
      void db.destroy().then(() => {
        logger.info('stopped');
        process.exit(0);
      });
    });
    server.closeIdleConnections();
    setInterval(() => server.closeIdleConnections(), 100).unref();
    setTimeout(() => {
      logger.error('forced exit: requests still open after the shutdown timeout');
      process.exit(1);
    }, config.shutdownTimeoutMs).unref();
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

main().catch((error: unknown) => {
  console.error(`clinic API could not start: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
