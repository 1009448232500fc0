import { createServer, type Server } from 'node:http';
import type { Logger } from 'pino';
import type { Registry } from 'prom-client';

export interface MetricsListener {
  port: number;
  host: string;
}

/**
 * The metrics on a listener of their own (METRICS_PORT, METRICS_HOST): GET
 * /metrics in Prometheus's text format, 404 for anything else. Apart from
 * the service's port so that it is never exposed where the API is (a
 * scraper reaches 127.0.0.1 or a private network), and so that a scrape
 * never waits behind the API's rate limits. It does not hold the process
 * open: the service's own server decides when it exits.
 *
 * Resolves once it listens; a port it cannot take rejects, so that the
 * service, which awaits this before its own port, fails to start with one
 * line (runMain) instead of answering for a moment and then exiting: a
 * supervisor (npm start) that saw it healthy took it for started.
 */
export function serveMetrics(registry: Registry, { port, host }: MetricsListener, logger: Logger): Promise<Server> {
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (path !== '/metrics' || (req.method !== 'GET' && req.method !== 'HEAD')) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
      return;
    }
    registry.metrics().then(
      (text) => res.writeHead(200, { 'content-type': registry.contentType, 'cache-control': 'no-store' }).end(text),
      (error: unknown) => {
        logger.error({ err: error }, 'metrics could not be collected');
        res.writeHead(500, { 'content-type': 'text/plain' }).end('metrics unavailable\n');
      },
    );
  });
  server.unref();
  return new Promise((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => {
      reject(new Error(error.code === 'EADDRINUSE' ? `metrics port ${port} (METRICS_PORT) is already in use` : `metrics: ${error.message}`));
    });
    server.listen(port, host, () => {
      const address = server.address();
      const actual = typeof address === 'object' && address ? address.port : port;
      logger.info({ host, port: actual }, `metrics on http://${host}:${actual}/metrics`);
      resolve(server);
    });
  });
}
