import { request } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { MIN_COMPRESSED_BYTES } from '../../../bff/content/content-cache.js';
import { describe, expect, it } from 'vitest';
import { startStack } from '../support/bff-harness.js';
import { rawGet, type RawAnswer } from './raw-get.js';

const stack = await startStack();

/** A HEAD with exactly these headers, and the bytes that came after its head (there must be none). */
function rawHead(url: string, headers: Record<string, string>): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'HEAD', headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

const CACHE_CONTROL = /^public, max-age=\d+, stale-while-revalidate=\d+, stale-if-error=\d+$/;

describe('a cached content answer, sent with the headers of its representation', () => {
  it.each([
    ['plain', {}, undefined],
    ['brotli', { 'accept-encoding': 'br' }, 'br'],
    ['gzip', { 'accept-encoding': 'gzip' }, 'gzip'],
  ])('in %s: JSON type, its own length, ETag, Cache-Control, Vary and its coding', async (_name, headers, coding) => {
    for (const path of ['/website', '/content', '/treatments', '/treatments/1']) {
      const plain = await rawGet(`${stack.bff.api}${path}`, {});
      const answer = await rawGet(`${stack.bff.api}${path}`, headers);
      expect(answer.status, path).toBe(200);
      expect(answer.headers['content-type'], path).toBe('application/json; charset=utf-8');
      expect(answer.headers['content-length'], path).toBe(String(answer.body.length));
      expect(answer.headers.etag, path).toMatch(/^"[\w-]+"$/);
      expect(answer.headers['cache-control'], path).toMatch(CACHE_CONTROL);
      expect(answer.headers.vary, path).toBe('Origin, Accept-Encoding');
      // A small answer is kept in plain bytes only.
      const expected = plain.body.length >= MIN_COMPRESSED_BYTES ? coding : undefined;
      expect(answer.headers['content-encoding'], path).toBe(expected);
      const decoded = expected === 'br' ? brotliDecompressSync(answer.body) : expected === 'gzip' ? gunzipSync(answer.body) : answer.body;
      expect(decoded.equals(plain.body), path).toBe(true);
    }
  });

  it('answers HEAD with the same headers as GET and no body', async () => {
    for (const headers of [{}, { 'accept-encoding': 'br' }] as Record<string, string>[]) {
      const get = await rawGet(`${stack.bff.api}/treatments`, headers);
      const head = await rawHead(`${stack.bff.api}/treatments`, headers);

      expect(head.status).toBe(200);
      expect(head.body.length).toBe(0);
      for (const name of ['content-type', 'content-length', 'content-encoding', 'etag', 'cache-control', 'vary']) {
        expect(head.headers[name], name).toEqual(get.headers[name]);
      }
    }
  });

  it('answers a matching If-None-Match with a bare 304: ETag, Cache-Control and Vary, no type, length or body', async () => {
    const first = await rawGet(`${stack.bff.api}/content`, { 'accept-encoding': 'gzip' });
    const again = await rawGet(`${stack.bff.api}/content`, { 'accept-encoding': 'gzip', 'if-none-match': `W/${String(first.headers.etag)}` });

    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
    expect(again.headers.etag).toBe(first.headers.etag);
    expect(again.headers['cache-control']).toBe(first.headers['cache-control']);
    expect(again.headers.vary).toBe('Origin, Accept-Encoding');
    expect(again.headers['content-type']).toBeUndefined();
    expect(again.headers['content-encoding']).toBeUndefined();
  });

  it('answers an If-None-Match that does not match, or asks for no-cache, in full', async () => {
    const first = await rawGet(`${stack.bff.api}/website`, {});
    const other = await rawGet(`${stack.bff.api}/website`, { 'if-none-match': '"not-this-one"' });
    const noCache = await rawGet(`${stack.bff.api}/website`, { 'if-none-match': String(first.headers.etag), 'cache-control': 'no-cache' });

    for (const answer of [other, noCache]) {
      expect(answer.status).toBe(200);
      expect(answer.body.equals(first.body)).toBe(true);
      expect(answer.headers['content-length']).toBe(String(first.body.length));
    }
  });

  it('keeps Vary: Origin once for an allowed origin, beside Accept-Encoding', async () => {
    const answer = await rawGet(`${stack.bff.api}/treatments`, { origin: 'https://clinic.example' });

    expect(answer.headers['access-control-allow-origin']).toBe('https://clinic.example');
    expect(answer.headers.vary).toBe('Origin, Accept-Encoding');
  });

  it('answers a 404 of the cache (an unknown treatment) with its error body, not cached by the browser as a 200', async () => {
    const answer = await rawGet(`${stack.bff.api}/treatments/999999`, {});

    expect(answer.status).toBe(404);
    expect(JSON.parse(answer.body.toString())).toMatchObject({ success: false, error_code: 'not_found' });
  });
});

describe('an ETag per content coding (RFC 9110: each representation its own validator)', () => {
  const url = () => `${stack.bff.api}/content`;
  const get = (acceptEncoding: string | undefined, ifNoneMatch?: string) =>
    rawGet(url(), { ...(acceptEncoding ? { 'accept-encoding': acceptEncoding } : {}), ...(ifNoneMatch ? { 'if-none-match': ifNoneMatch } : {}) });

  it('gives the plain, brotli and gzip bytes of one answer three ETags, the coding named in each', async () => {
    const [plain, br, gzip] = await Promise.all([get(undefined), get('br'), get('gzip')]);
    // The bundle is well over MIN_COMPRESSED_BYTES, so it is kept in every coding.
    expect([plain, br, gzip].map((answer) => answer.headers['content-encoding'])).toEqual([undefined, 'br', 'gzip']);

    const etag = String(plain.headers.etag);
    expect(etag).toMatch(/^"[\w-]+"$/);
    expect(br.headers.etag).toBe(`${etag.slice(0, -1)}-br"`);
    expect(gzip.headers.etag).toBe(`${etag.slice(0, -1)}-gzip"`);
  });

  it.each([
    ['the brotli ETag, asked for gzip', 'br', 'gzip', 'gzip'],
    ['the brotli ETag, asked for plain bytes', 'br', undefined, undefined],
    ['the plain ETag, asked for brotli', undefined, 'br', 'br'],
    ['the gzip ETag, asked for brotli', 'gzip', 'br', 'br'],
  ] as const)('answers %s in full: another representation', async (_case, etagCoding, asked, expectedCoding) => {
    const other = String((await get(etagCoding)).headers.etag);

    const answer = await get(asked, other);

    expect(answer.status).toBe(200);
    expect(answer.headers['content-encoding']).toBe(expectedCoding);
    expect(answer.headers.etag).not.toBe(other);
    expect(answer.body.length).toBe(Number(answer.headers['content-length']));
  });

  it.each([
    ['its own ETag', (own: string) => own],
    ['its own ETag, weak', (own: string) => `W/${own}`],
    ['a list holding its own ETag among the others', (own: string, others: string[]) => [...others, own].join(', ')],
  ])('answers 304 to %s', async (_case, ifNoneMatch) => {
    const etags = await Promise.all([get(undefined), get('br'), get('gzip')]).then((answers) => answers.map((answer) => String(answer.headers.etag)));
    for (const [index, coding] of ([undefined, 'br', 'gzip'] as const).entries()) {
      const own = etags[index]!;

      const answer = await get(coding, ifNoneMatch(own, etags.filter((etag) => etag !== own)));

      expect(answer.status, coding).toBe(304);
      expect(answer.headers.etag, coding).toBe(own);
      expect(answer.body.length, coding).toBe(0);
    }
  });
});
