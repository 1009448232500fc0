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
 */
export function serveMetrics(registry: Registry, { port, host }: MetricsListener, logger: Logger): Server {
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
  server.listen(port, host, () => {
    const address = server.address();
    const actual = typeof address === 'object' && address ? address.port : port;
    logger.info({ host, port: actual }, `metrics on http://${host}:${actual}/metrics`);
  });
  server.on('error', (error: NodeJS.ErrnoException) => {
    const reason = error.code === 'EADDRINUSE' ? `port ${port} is already in use` : error.message;
    console.error(`metrics could not start: ${reason}`);
    process.exit(1);
  });
  server.unref();
  return server;
}
