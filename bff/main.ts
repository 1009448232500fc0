import { systemClock } from '../platform/clock.js';
import { createLogger } from '../platform/logger.js';
import { runMain } from '../platform/run-main.js';
import { serve } from '../platform/serve.js';
import { createBff } from './app.js';
import { loadBffConfig } from './config.js';

/** Starts the BFF: reads config (one line naming a bad setting), listens, drains on SIGTERM. */
runMain('BFF', () => {
  const config = loadBffConfig();
  const logger = createLogger(config.logLevel);
  const bff = createBff({ config, logger, clock: systemClock });
  const server = serve(bff.app, {
    name: 'BFF',
    port: config.port,
    host: config.host,
    logger,
    shutdownTimeoutMs: config.shutdownTimeoutMs,
  });
  // npm run dev (WIDGET_DEV_URL): Vite's HMR websocket goes through the widget proxy too.
  bff.widgetDevProxy?.attach(server);
});
