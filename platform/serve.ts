import type { Server } from 'node:http';
import type { Express } from 'express';
import type { Logger } from 'pino';

export interface ServeOptions {
  /** How the service names itself in its log lines and start-up errors. */
  name: string;
  port: number;
  host: string;
  logger: Logger;
  shutdownTimeoutMs: number;
  /** Runs after the last request has finished, before the process exits (e.g. close the database). */
  onDrained?: () => Promise<void>;
}

/**
 * Listens, reports a taken port as one line, and on SIGTERM or SIGINT drains:
 * in-flight requests finish, keep-alive sockets close as soon as they fall
 * idle, and a timer that does not hold the process open forces the exit if
 * something hangs. Shared by the API server and the BFF.
 */
export function serve(app: Express, { name, port, host, logger, shutdownTimeoutMs, onDrained }: ServeOptions): Server {
  const server = app.listen(port, host);
  server.on('listening', () => {
    const address = server.address();
    const actualPort = typeof address === 'object' && address ? address.port : port;
    logger.info({ host, port: actualPort }, `${name} listening on http://${host}:${actualPort}/`);
  });
  server.on('error', (error: NodeJS.ErrnoException) => {
    const reason = error.code === 'EADDRINUSE' ? `port ${port} is already in use` : error.message;
    console.error(`${name} could not start: ${reason}`);
    process.exit(1);
  });

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'draining in-flight requests');
    server.close(() => {
      void (onDrained?.() ?? Promise.resolve()).then(() => {
        logger.info('stopped');
        process.exit(0);
      });
    });
    server.closeIdleConnections();
    setInterval(() => server.closeIdleConnections(), 100).unref();
    setTimeout(() => {
      logger.error('forced exit: requests still open after the shutdown timeout');
      process.exit(1);
    }, shutdownTimeoutMs).unref();
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
  return server;
}
