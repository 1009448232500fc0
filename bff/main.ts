import { createLogger } from '../platform/logger.js';
import { serve } from '../platform/serve.js';
import { loadBffConfig, type BffConfig } from './config.js';
import { createBff } from './app.js';

/** Starts the BFF: reads config (one line naming a bad setting), listens, drains on SIGTERM. */
function main(): void {
  let config: BffConfig;
  try {
    config = loadBffConfig();
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(1);
  }
  const logger = createLogger(config.logLevel);
  serve(createBff({ config, logger }).app, {
    name: 'BFF',
    port: config.port,
    host: config.host,
    logger,
    shutdownTimeoutMs: config.shutdownTimeoutMs,
  });
}

main();
