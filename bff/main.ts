import { createLogger } from '../server/logger.js';
import { loadBffConfig } from './config.js';
import { createBff } from './app.js';

/** Starts the BFF: reads config, listens, drains on SIGTERM. */
function main(): void {
  let config;
  try {
    config = loadBffConfig();
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(1);
  }
  const logger = createLogger(config.logLevel);
  const { app } = createBff({ config, logger });
  const server = app.listen(config.port, config.host);
  server.on('listening', () => {
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : config.port;
    logger.info({ host: config.host, port }, `BFF listening on http://${config.host}:${port}/`);
  });
  server.on('error', (error: NodeJS.ErrnoException) => {
    console.error(`BFF could not start: ${error.code === 'EADDRINUSE' ? `port ${config.port} is already in use` : error.message}`);
    process.exit(1);
  });

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'draining in-flight requests');
    server.close(() => process.exit(0));
    server.closeIdleConnections();
    setInterval(() => server.closeIdleConnections(), 100).unref();
    setTimeout(() => process.exit(1), config.shutdownTimeoutMs).unref();
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

main();
