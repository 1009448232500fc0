import type { AddressInfo } from 'node:net';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import express, { type Response } from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AnswerHeaders, setHeaders, varyOnOriginAndEncoding } from '../../../bff/content/answer-headers.js';
import type { CachedAnswer } from '../../../bff/content/content-cache.js';
import { createHttpServer } from '../../../platform/fast-http/http-server.js';

/**
 * Guard of a hot-path trick (docs/performance.md): a cached answer's headers
 * are worked out once per cache entry (bff/content/answer-headers.ts) instead
 * of by Express's res.set / res.vary / res.type / res.send on every request.
 * They must stay what Express would write: an upgrade that changes Express's
 * headers fails here, header by header.
 */
const CACHE_CONTROL = 'public, max-age=60, stale-while-revalidate=30, stale-if-error=600';
// Long enough to be compressed (MIN_COMPRESSED_BYTES).
const data = Array.from({ length: 40 }, (_, index) => ({ id: index + 1, name: 'Zahnreinigung – “Plus”' }));
const body = Buffer.from(JSON.stringify({ success: true, data }));
const brBody = brotliCompressSync(body);
const answer: CachedAnswer = { site: 'default', status: 200, body, etag: '"abc123"', fetchedAt: 0 };
const headers = new AnswerHeaders(CACHE_CONTROL, { br: () => brBody, gzip: () => gzipSync(body) });

let base: string;
let close: () => Promise<void>;

beforeAll(async () => {
  const app = express();
  app.set('etag', false);
  /** CORS's header, set before the content answers, as for an allowed origin. */
  const withOrigin = (res: Response, origin: unknown) => origin && res.vary('Origin');
  app.get('/express/:coding', (req, res) => {
    withOrigin(res, req.query.origin);
    const coding = req.params.coding === 'br' ? 'br' : 'identity';
    res.set('ETag', coding === 'br' ? '"abc123-br"' : '"abc123"');
    res.set('Cache-Control', CACHE_CONTROL);
    res.vary('Origin');
    res.vary('Accept-Encoding');
    res.type('json');
    if (coding === 'br') res.set('Content-Encoding', 'br');
    res.send(coding === 'br' ? brBody : body);
  });
  app.get('/prepared/:coding', (req, res) => {
    withOrigin(res, req.query.origin);
    const representation = headers.representation(answer, req.params.coding === 'br' ? 'br' : 'identity');
    setHeaders(res, representation.headers);
    varyOnOriginAndEncoding(res);
    res.end(representation.body);
  });
  const server = createHttpServer(app).listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  close = () => new Promise((resolve) => server.close(() => resolve()));
});
afterAll(() => close());

/** Status, headers (less those of the moment and the connection) and bytes, as a client sees them. */
async function seen(path: string) {
  const res = await fetch(`${base}${path}`, { headers: { 'accept-encoding': 'identity' } });
  const all = Object.fromEntries([...res.headers].filter(([name]) => !['date', 'connection', 'keep-alive'].includes(name)));
  return { status: res.status, headers: all, body: Buffer.from(await res.arrayBuffer()).toString('hex') };
}

describe('a cached answer’s prepared headers against what Express writes', () => {
  it.each([
    ['plain bytes', 'identity', ''],
    ['brotli bytes', 'br', ''],
    ['plain bytes, CORS’s Vary: Origin set first', 'identity', '?origin=1'],
  ])('%s: the same status, headers and bytes', async (_name, coding, query) => {
    const expected = await seen(`/express/${coding}${query}`);
    expect(Object.keys(expected.headers)).toEqual(expect.arrayContaining(['content-type', 'content-length', 'etag', 'cache-control', 'vary']));
    expect(await seen(`/prepared/${coding}${query}`)).toEqual(expected);
  });
});
