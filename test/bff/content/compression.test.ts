import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { zlibCompressor } from '../../../bff/content/content-cache.js';
import { startStack } from '../support/bff-harness.js';
import { rawGet } from './raw-get.js';

const stack = await startStack();
afterEach(() => vi.restoreAllMocks());

describe('compressed /api JSON', () => {
  it('answers /api/website to Accept-Encoding br with Content-Encoding br that decodes to the same JSON', async () => {
    const plain = await rawGet(`${stack.bff.api}/website`, {});
    expect(plain.body.length).toBeGreaterThanOrEqual(1024);
    const br = await rawGet(`${stack.bff.api}/website`, { 'accept-encoding': 'br' });
    expect(br.status).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toMatch(/^application\/json/);
    expect(br.body.length).toBeLessThan(plain.body.length);
    expect(JSON.parse(brotliDecompressSync(br.body).toString())).toEqual(JSON.parse(plain.body.toString()));
  });

  it('prefers br for a browser that sends gzip, deflate, br, zstd, and answers gzip to gzip alone', async () => {
    const chrome = await rawGet(`${stack.bff.api}/website`, { 'accept-encoding': 'gzip, deflate, br, zstd' });
    expect(chrome.headers['content-encoding']).toBe('br');
    const gzip = await rawGet(`${stack.bff.api}/website`, { 'accept-encoding': 'gzip' });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    const plain = await rawGet(`${stack.bff.api}/website`, {});
    expect(gunzipSync(gzip.body).equals(plain.body)).toBe(true);
  });

  it('sends Vary: Accept-Encoding and Origin, and no Content-Encoding without Accept-Encoding', async () => {
    const plain = await rawGet(`${stack.bff.api}/website`, {});
    const vary = String(plain.headers.vary).toLowerCase();
    expect(vary).toContain('accept-encoding');
    expect(vary).toContain('origin');
    expect(plain.headers['content-encoding']).toBeUndefined();
    const br = await rawGet(`${stack.bff.api}/website`, { 'accept-encoding': 'br' });
    expect(String(br.headers.vary).toLowerCase()).toContain('accept-encoding');
  });

  it('answers 304 to If-None-Match with the ETag of a compressed answer', async () => {
    const br = await rawGet(`${stack.bff.api}/website`, { 'accept-encoding': 'br' });
    const etag = String(br.headers.etag);
    const again = await rawGet(`${stack.bff.api}/website`, { 'accept-encoding': 'br', 'if-none-match': etag });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
  });

  it('leaves an answer under 1 KB uncompressed', async () => {
    const organization = await rawGet(`${stack.bff.api}/treatments/1`, { 'accept-encoding': 'br, gzip' });
    expect(organization.body.length).toBeLessThan(1024);
    expect(organization.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(organization.body.toString())).toMatchObject({ success: true });
  });
});

describe('compression once per cache entry', () => {
  it('compresses each cached answer once, however many requests it serves', async () => {
    const fresh = await startStack();
    try {
      const br = vi.spyOn(zlibCompressor, 'br');
      const gzip = vi.spyOn(zlibCompressor, 'gzip');
      const first = await rawGet(`${fresh.bff.api}/website`, { 'accept-encoding': 'br' });
      const plain = await rawGet(`${fresh.bff.api}/website`, {});
      for (let i = 0; i < 5; i++) {
        await rawGet(`${fresh.bff.api}/website`, { 'accept-encoding': 'br' });
        await rawGet(`${fresh.bff.api}/website`, { 'accept-encoding': 'gzip' });
      }
      const last = await rawGet(`${fresh.bff.api}/website`, { 'accept-encoding': 'br' });
      const ofWebsite = (spy: typeof br) => spy.mock.calls.filter(([body]) => Buffer.from(body).equals(plain.body)).length;
      expect(ofWebsite(br)).toBe(1);
      expect(ofWebsite(gzip)).toBe(1);
      expect(last.body.equals(first.body)).toBe(true);
    } finally {
      await fresh.close();
    }
  });
});

/**
 * Guard of answer-compression.ts: nothing is compressed when it is cached,
 * only when a client first asks for it in a coding. With 1,000 sites,
 * compressing every cached answer (and every list item) at caching was 41 %
 * of the cold start's CPU and a compressed copy of each held in memory.
 */
describe('compression on first request, not at caching', () => {
  it('caches every content answer without compressing any, then compresses one coding when it is asked for', async () => {
    const fresh = await startStack();
    try {
      const br = vi.spyOn(zlibCompressor, 'br');
      const gzip = vi.spyOn(zlibCompressor, 'gzip');
      for (const path of ['/content', '/website', '/organization', '/treatments', '/dentists']) {
        expect((await rawGet(`${fresh.bff.api}${path}`, {})).status, path).toBe(200);
      }
      expect(br).not.toHaveBeenCalled();
      expect(gzip).not.toHaveBeenCalled();

      const website = await rawGet(`${fresh.bff.api}/website`, { 'accept-encoding': 'gzip' });

      expect(website.headers['content-encoding']).toBe('gzip');
      expect(gzip).toHaveBeenCalledTimes(1);
      expect(br).not.toHaveBeenCalled();
    } finally {
      await fresh.close();
    }
  });
});

/**
 * Guard of ownBytes (answer-compression.ts): what a cached answer keeps
 * holds memory of its own length, not a view of a larger chunk or pool slab
 * that its keeping would hold whole.
 */
describe('cached bytes hold only their own length', () => {
  it('gives brotli and gzip copies memory of exactly their length', () => {
    const json = Buffer.from(JSON.stringify({ success: true, data: Array.from({ length: 200 }, (_, id) => ({ id, name: 'Zahnreinigung' })) }));
    for (const coding of ['br', 'gzip'] as const) {
      const compressed = zlibCompressor[coding](json);
      expect(compressed.length, coding).toBeLessThan(json.length);
      expect(compressed.buffer.byteLength, coding).toBe(compressed.length);
    }
  });
});
