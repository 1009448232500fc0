import type { AddressInfo } from 'node:net';
import type { RequestHandler } from 'express';
import express from 'express';
import helmet from 'helmet';
import { describe, expect, it } from 'vitest';
import { fixedHeaders } from '../../../platform/fast-http/fixed-headers.js';
import { createHttpServer } from '../../../platform/fast-http/http-server.js';

/** Every header of one GET answered by an app with `headers` in front of one route, without the ones Node adds. */
async function headersOf(headers: RequestHandler): Promise<Record<string, string>> {
  const app = express();
  app.use(headers);
  app.get('/', (_req, res) => {
    res.send('ok');
  });
  const server = createHttpServer(app).listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  try {
    const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/?x=1`);
    await res.text();
    const all = Object.fromEntries(res.headers);
    for (const name of ['date', 'connection', 'keep-alive', 'content-length', 'content-type', 'etag', 'x-powered-by']) delete all[name];
    return all;
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
}

describe('fixedHeaders', () => {
  it.each([
    ['defaults', {}],
    ['no CSP, cross-origin resources (/api)', { contentSecurityPolicy: false, crossOriginResourcePolicy: { policy: 'cross-origin' as const } }],
    ['a page CSP with style hashes', { contentSecurityPolicy: { directives: { 'style-src': ["'self'", "'sha256-abc='"] } } }],
  ])('sends exactly the headers helmet sends itself (%s)', async (_name, options) => {
    const byHelmet = await headersOf(helmet(options));
    const fixed = await headersOf(fixedHeaders(helmet(options)));

    expect(Object.keys(byHelmet).length).toBeGreaterThan(8);
    expect(fixed).toEqual(byHelmet);
  });

  it('removes what the middleware removes (X-Powered-By)', async () => {
    const app = express();
    app.use(fixedHeaders(helmet()));
    app.get('/', (_req, res) => {
      res.send('ok');
    });
    const server = createHttpServer(app).listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
    await res.text();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));

    expect(res.headers.get('x-powered-by')).toBeNull();
  });

  it('refuses, at start-up, a middleware whose headers depend on the request (a CSP nonce)', () => {
    let nonce = 0;
    const withNonce = helmet({ contentSecurityPolicy: { directives: { 'script-src': ["'self'", () => `'nonce-${++nonce}'`] } } });

    expect(() => fixedHeaders(withNonce)).toThrow(/different headers per request/);
  });
});
