import { Server as NetServer } from 'node:net';
import type { Server, ServerResponse } from 'node:http';
import type { Express } from 'express';
import type { Logger } from 'pino';
import { createHttpServer } from './fast-http/http-server.js';
import { exitAfterLogsFlushed } from './logger.js';
import { stopTracing } from './tracing/start-tracing.js';

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
 * How long a keep-alive connection that is idle when the drain starts may still
 * bring a request (answered, with `Connection: close`) before it is closed. A
 * client that got its answer just before the signal has usually sent its next
 * request already, or is about to: closing the connection at once would reset
 * that request unanswered (64 such resets in a burst of 64 connections). Closing
 * an idle connection can always race a client's next request; the grace leaves
 * that race only to a client silent for this long, on a busy machine too.
 */
export const IDLE_GRACE_MS = 2000;

/**
 * Listens, reports a taken port as one line, and on SIGTERM or SIGINT drains:
 * it stops accepting connections at once; in-flight requests finish, and every
 * answer from then on carries `Connection: close`, so the server closes each
 * busy connection after its answer and no client reuses it; connections idle at
 * the signal are closed after IDLE_GRACE_MS (at most half the shutdown timeout).
 * A timer that does not hold the process open forces the exit if something
 * hangs. Either way the process exits once its buffered log lines are written.
 * Shared by the API server and the BFF.
 */
export function serve(app: Express, { name, port, host, logger, shutdownTimeoutMs, onDrained }: ServeOptions): Server {
  const server = createHttpServer(app).listen(port, host);
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
  const unanswered = new Set<ServerResponse>();
  server.on('request', (_req, res: ServerResponse) => {
    if (stopping) {
      res.setHeader('Connection', 'close');
      return;
    }
    unanswered.add(res);
    res.once('finish', () => unanswered.delete(res));
    res.once('close', () => unanswered.delete(res));
  });

  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'draining in-flight requests');
    for (const res of unanswered) if (!res.headersSent) res.setHeader('Connection', 'close');
    // net.Server's close, not http.Server's: that one also closes idle
    // connections at once, resetting requests sent but not read yet.
    NetServer.prototype.close.call(server, () => {
      // The last spans are sent after the last request (at once when traces are off).
      void (onDrained?.() ?? Promise.resolve()).then(stopTracing).then(() => {
        logger.info('stopped');
        exitAfterLogsFlushed(logger, 0);
      });
    });
    // In the check phase, right after the poll phase has read every socket: a
    // request that arrived while the process was busy makes its connection busy
    // first, rather than sitting unread in a connection closed as idle.
    const closeIdle = () => setImmediate(() => server.closeIdleConnections());
    const idleGraceMs = Math.min(IDLE_GRACE_MS, shutdownTimeoutMs / 2);
    setTimeout(() => {
      closeIdle();
      // Connections whose answer was already being written at the signal, so without `Connection: close`.
      setInterval(closeIdle, idleGraceMs).unref();
    }, idleGraceMs).unref();
    setTimeout(() => {
      logger.error('forced exit: requests still open after the shutdown timeout');
      exitAfterLogsFlushed(logger, 1);
    }, shutdownTimeoutMs).unref();
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
  return server;
}
