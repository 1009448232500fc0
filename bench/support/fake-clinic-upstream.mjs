// A stand-in for the clinic API of many clinics, for bench/sites.bench.mjs: it grants a token to any
// app key (after a delay, as a real exchange takes one) and answers the content routes of every clinic
// with the same bodies, captured from the real reference server's demo clinic, so the BFF parses,
// sanitises, compresses and caches realistic demo-size answers. It counts what the benchmark checks:
// token exchanges in flight at once (at most TOKEN_EXCHANGES_MAX_IN_FLIGHT across all sites), exchanges
// per app key, and content calls. One process, 1,000 clinics, no seeding of 1,000 clinics upstream.

import { createServer } from 'node:http';
import { once } from 'node:events';
import { HOST, stopAtCleanUp } from './processes.mjs';

/** The clinic API's content paths, under /api/v1, that the BFF reads. */
export const CONTENT_PATHS = ['/organization', '/website', '/treatments', '/dentists'];

/**
 * Reads the demo clinic's content from the real reference server at `baseUrl` with its app key and a
 * token: { '/organization': Buffer, … }, the exact bytes it answers.
 */
export async function captureContent(baseUrl, appKey, token) {
  const bodies = {};
  for (const path of CONTENT_PATHS) {
    const response = await fetch(`${baseUrl}/api/v1${path}`, { headers: { 'x-app-key': appKey, authorization: `Bearer ${token}` } });
    if (response.status !== 200) throw new Error(`the reference server answered ${response.status} to GET /api/v1${path}`);
    bodies[path] = Buffer.from(await response.arrayBuffer());
  }
  return bodies;
}

/**
 * Starts the fake upstream on a free port; returns { api, counts, close }. `exchangeDelayMs`: how long
 * each /granttoken takes (the reference server hashes and stores a token; a remote one adds a round trip).
 */
export async function startFakeUpstream(bodies, { exchangeDelayMs }) {
  const counts = { exchangesInFlight: 0, mostExchangesInFlight: 0, exchanges: 0, exchangesByKey: new Map(), contentCalls: 0, refused: 0 };
  const tokenOf = (appKey, serial) => `fake-token-${appKey}-${serial}`;
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const appKey = String(req.headers['x-app-key'] ?? '');
      const path = (req.url ?? '').replace(/^\/api\/v1/, '').replace(/\?.*$/, '');
      if (req.method === 'POST' && path === '/granttoken') {
        counts.exchanges += 1;
        counts.exchangesInFlight += 1;
        counts.mostExchangesInFlight = Math.max(counts.mostExchangesInFlight, counts.exchangesInFlight);
        const serial = (counts.exchangesByKey.get(appKey) ?? 0) + 1;
        counts.exchangesByKey.set(appKey, serial);
        setTimeout(() => {
          counts.exchangesInFlight -= 1;
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ access_token: tokenOf(appKey, serial), expires_in: 3600 }));
        }, exchangeDelayMs);
        return;
      }
      const body = req.method === 'GET' ? bodies[path] : undefined;
      // A token of another app key is refused, as upstream would: sites must never cross.
      const serial = counts.exchangesByKey.get(appKey) ?? 0;
      if (!body || serial === 0 || req.headers.authorization !== `Bearer ${tokenOf(appKey, serial)}`) {
        counts.refused += 1;
        res.writeHead(body ? 401 : 404, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ success: false, message: body ? 'Unauthorized' : 'Not found', error_code: body ? 'auth_failed' : 'not_found' }));
        return;
      }
      counts.contentCalls += 1;
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length });
      res.end(body);
    });
  });
  server.listen(0, HOST);
  await once(server, 'listening');
  const close = stopAtCleanUp(
    () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return { api: `http://${HOST}:${server.address().port}/api/v1`, counts, close };
}
