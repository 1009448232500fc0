import { createServer, request, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { once } from '../../support/scoped-teardown.js';

/** One request as it reached the proxy: its method, the request line's target and its Referer, as they came. */
export interface SeenRequest {
  method: string;
  url: string;
  referer?: string;
}

export interface RecordingProxy {
  /** http://127.0.0.1:port: what the browser opens instead of the service's own origin. */
  origin: string;
  /** Every request the proxy passed on, in order. */
  seen: SeenRequest[];
  close(): Promise<void>;
}

/**
 * A plain reverse proxy on 127.0.0.1 in front of `target` (an http origin)
 * that records what a server in front of the service sees of each request:
 * the target of its request line and its Referer, before anything (a
 * router, a request log) reads or redacts them. Requests and answers pass
 * through as they are, streamed both ways.
 */
export async function startRecordingProxy(target: string): Promise<RecordingProxy> {
  const upstream = new URL(target);
  const seen: SeenRequest[] = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    seen.push({ method: req.method ?? '', url: req.url ?? '', ...(req.headers.referer ? { referer: req.headers.referer } : {}) });
    const onward = request(
      { hostname: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    onward.on('error', () => res.destroy());
    req.pipe(onward);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    close: once(async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }),
  };
}
