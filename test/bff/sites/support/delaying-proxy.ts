import { createServer, request } from 'node:http';
import { closeServer, listen } from '../../support/bff-harness.js';
import { closeWhenScopeEnds, once } from '../../../support/scoped-teardown.js';

/**
 * A proxy in front of the reference server that holds each request for a
 * random 0..maxDelayMs before passing it on, so that answers come back in
 * another order than their requests went out: what two sites' requests
 * interleaved on one upstream meet. Closed when its scope ends.
 */
export async function startDelayingProxy(upstreamApi: string, maxDelayMs: number): Promise<{ api: string; close(): Promise<void> }> {
  const target = new URL(upstreamApi);
  const server = createServer((req, res) => {
    setTimeout(() => {
      const forwarded = request(
        { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      forwarded.on('error', () => res.destroy());
      req.pipe(forwarded);
    }, Math.random() * maxDelayMs);
  });
  const baseUrl = await listen(server);
  const close = once(() => closeServer(server));
  closeWhenScopeEnds(close);
  return { api: `${baseUrl}${target.pathname}`, close };
}
