import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { chooseEncoding } from '../../../bff/widget-hosting/precompressed.js';
import { startBff, startStubUpstream } from '../support/bff-harness.js';
import { expectError } from '../../support/expect-error.js';

const CREDENTIALS = { appKey: 'ck_widget', secret: 'widget-test-app-secret-0123456789' };
const HASHED = 'clinic-booking-Ab3_x-9Z.js';
const LOADER = `export * from './${HASHED}';\n`;
const PACK = 'i18n-fr-Xy7_q.js';
const PACK_CODE = `export const fr = { loading: 'Chargement…' };\n${'// the French strings\n'.repeat(100)}`;
/** A part the module fetches on demand (the clinic's structured data), beside it in the same folder. */
const PART = 'clinic-booking-seo-Pq4_z9Xw.js';
const PART_CODE = `export function publishJsonLd() {}\n${'// the JSON-LD builder\n'.repeat(100)}`;
const MODULE = `customElements.define('clinic-booking', class extends HTMLElement {});\n${'// the widget\n'.repeat(200)}`;

/**
 * A folder shaped like the build's output (vite.config.ts): the loader at the
 * stable name, the hashed module it imports, and its .br and .gz copies.
 */
function widgetFolder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'clinic-widget-'));
  writeFileSync(join(dir, 'clinic-booking.js'), LOADER);
  writeFileSync(join(dir, HASHED), MODULE);
  writeFileSync(join(dir, `${HASHED}.br`), brotliCompressSync(MODULE));
  writeFileSync(join(dir, `${HASHED}.gz`), gzipSync(MODULE));
  writeFileSync(join(dir, PACK), PACK_CODE);
  writeFileSync(join(dir, `${PACK}.br`), brotliCompressSync(PACK_CODE));
  writeFileSync(join(dir, `${PACK}.gz`), gzipSync(PACK_CODE));
  writeFileSync(join(dir, PART), PART_CODE);
  writeFileSync(join(dir, `${PART}.br`), brotliCompressSync(PART_CODE));
  writeFileSync(join(dir, `${PART}.gz`), gzipSync(PART_CODE));
  return dir;
}

/**
 * GET without any decoding: fetch() always sends its own Accept-Encoding and
 * decodes what comes back, so the bytes on the wire are read with node:http.
 */
function rawGet(url: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

const widgetDir = widgetFolder();
const emptyDir = mkdtempSync(join(tmpdir(), 'clinic-widget-empty-'));

const stub = await startStubUpstream();
const bff = await startBff(stub.api, CREDENTIALS, { widgetDir });
const bffWithoutWidget = await startBff(stub.api, CREDENTIALS, { widgetDir: emptyDir });
afterAll(() => {
  rmSync(widgetDir, { recursive: true, force: true });
  rmSync(emptyDir, { recursive: true, force: true });
});

const maxAge = (cacheControl: string | null | undefined) => Number(/max-age=(\d+)/.exec(cacheControl ?? '')?.[1]);

describe('GET /widget/clinic-booking.js (the loader)', () => {
  it('answers the loader as JavaScript that any site may load', async () => {
    const res = await fetch(`${bff.baseUrl}/widget/clinic-booking.js`, { headers: { origin: 'https://any-clinic.example' } });

    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^(text|application)\/javascript/);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(await res.text()).toBe(LOADER);
  });

  it('lets browsers and CDNs cache the stable entry name for five minutes only', async () => {
    const res = await fetch(`${bff.baseUrl}/widget/clinic-booking.js`);

    expect(maxAge(res.headers.get('cache-control'))).toBe(300);
    expect(res.headers.get('cache-control')).not.toMatch(/immutable/);
  });

  it('sends only the headers that govern a script, its ETag included', async () => {
    const res = await rawGet(`${bff.baseUrl}/widget/clinic-booking.js`, { origin: 'https://any-clinic.example' });

    expect(Object.keys(res.headers).sort()).toEqual(
      ['access-control-allow-origin', 'cache-control', 'connection', 'content-length', 'content-type', 'cross-origin-resource-policy', 'date', 'etag', 'keep-alive', 'x-content-type-options'].sort(),
    );
    expect(res.headers['content-type']).toBe('text/javascript');
  });

  it('answers 304 with no body to an If-None-Match of its ETag', async () => {
    const first = await fetch(`${bff.baseUrl}/widget/clinic-booking.js`);
    const etag = first.headers.get('etag');
    expect(etag).toMatch(/^"[^"]+"$/);

    // As a browser revalidates: fetch() would add Cache-Control: no-cache, a reload that is always answered in full.
    const again = await rawGet(`${bff.baseUrl}/widget/clinic-booking.js`, { 'if-none-match': etag! });

    expect(again.status).toBe(304);
    expect(again.headers.etag).toBe(etag);
    expect(again.headers['cache-control']).toBe(first.headers.get('cache-control'));
    expect(again.body.length).toBe(0);
  });

  it('answers 200 with the loader to an If-None-Match of another ETag', async () => {
    const res = await rawGet(`${bff.baseUrl}/widget/clinic-booking.js`, { 'if-none-match': '"an-older-release"' });

    expect(res.status).toBe(200);
    expect(res.body.toString()).toBe(LOADER);
  });

  it('answers 404 with the spec body when the widget has not been built', async () => {
    const res = await fetch(`${bffWithoutWidget.baseUrl}/widget/clinic-booking.js`);

    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ success: false, message: expect.any(String), error_code: 'not_found' });
  });
});

describe('GET /widget/clinic-booking-<hash>.js (the widget module)', () => {
  const url = () => `${bff.baseUrl}/widget/${HASHED}`;

  it('answers brotli to a browser that accepts br, with Vary: Accept-Encoding', async () => {
    const res = await rawGet(url(), { 'accept-encoding': 'gzip, deflate, br, zstd' });

    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers.vary).toMatch(/\bAccept-Encoding\b/i);
    expect(res.headers['content-type']).toMatch(/^text\/javascript/);
    expect(Number(res.headers['content-length'])).toBe(res.body.length);
    expect(brotliDecompressSync(res.body).toString()).toBe(MODULE);
  });

  it('answers gzip to a client that accepts gzip only', async () => {
    const res = await rawGet(url(), { 'accept-encoding': 'gzip' });

    expect(res.headers['content-encoding']).toBe('gzip');
    expect(res.headers.vary).toMatch(/\bAccept-Encoding\b/i);
    expect(gunzipSync(res.body).toString()).toBe(MODULE);
  });

  it('answers the plain file, still with Vary, to a client that sends no Accept-Encoding', async () => {
    const res = await rawGet(url());

    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.headers.vary).toMatch(/\bAccept-Encoding\b/i);
    expect(res.body.toString()).toBe(MODULE);
  });

  it('is cached for a year as immutable and may be loaded from any site', async () => {
    const res = await rawGet(url(), { 'accept-encoding': 'br' });

    expect(res.headers['cache-control']).toBe('max-age=31536000, immutable');
    expect(res.headers['access-control-allow-origin']).toBe('*');
  });

  it('sends only the headers that govern a script: Lighthouse counts every byte of them in the 25 KiB', async () => {
    const res = await rawGet(url(), { 'accept-encoding': 'br', origin: 'https://any-clinic.example' });

    expect(Object.keys(res.headers).sort()).toEqual(
      ['access-control-allow-origin', 'cache-control', 'connection', 'content-encoding', 'content-length', 'content-type', 'cross-origin-resource-policy', 'date', 'keep-alive', 'vary', 'x-content-type-options'].sort(),
    );
    // A module script is decoded as UTF-8 whatever the header says: no charset.
    expect(res.headers['content-type']).toBe('text/javascript');
  });

  it('redirects, uncached, a hash of an earlier release to the module the loader names now', async () => {
    const res = await fetch(`${bff.baseUrl}/widget/clinic-booking-0ldRe1ease.js`, { redirect: 'manual' });

    expect(res.status).toBe(302);
    expect(new URL(res.headers.get('location')!, res.url).pathname).toBe(`/widget/${HASHED}`);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('cache-control')).not.toMatch(/immutable/);
  });

  it('answers 404 with the spec body for a module when the widget has not been built', async () => {
    const res = await fetch(`${bffWithoutWidget.baseUrl}/widget/${HASHED}`);

    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ success: false, message: expect.any(String), error_code: 'not_found' });
  });

  it('serves nothing outside the widget folder through an encoded dot segment', async () => {
    const res = await fetch(`${bff.baseUrl}/widget/..%2Fclinic-booking-x.js`);

    expect(res.headers.get('cache-control') ?? '').not.toMatch(/immutable/);
    await expectError(res, 404, 'not_found');
  });

  it('answers 404 for any other file name under /widget', async () => {
    const res = await fetch(`${bff.baseUrl}/widget/${HASHED}.br`);

    await expectError(res, 404, 'not_found');
  });
});

describe('GET /widget/i18n-<lang>-<hash>.js (a language pack)', () => {
  it('answers the precompressed pack as JavaScript, cached for a year, loadable from any site', async () => {
    const res = await rawGet(`${bff.baseUrl}/widget/${PACK}`, { 'accept-encoding': 'gzip, deflate, br, zstd' });

    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['content-type']).toMatch(/^text\/javascript/);
    expect(res.headers['cache-control']).toBe('max-age=31536000, immutable');
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(brotliDecompressSync(res.body).toString()).toBe(PACK_CODE);
  });

  it('answers 404, not a redirect, for a pack that is not there', async () => {
    const res = await fetch(`${bff.baseUrl}/widget/i18n-fr-0ldRe1ease.js`, { redirect: 'manual' });

    await expectError(res, 404, 'not_found');
  });
});

describe('GET /widget/clinic-booking-manage-…, -failures-…, -calendar-…, -seo-… (parts loaded on demand)', () => {
  it('answers a part that is there as it answers the module: precompressed, cached for a year, loadable from any site', async () => {
    const res = await rawGet(`${bff.baseUrl}/widget/${PART}`, { 'accept-encoding': 'gzip, deflate, br, zstd', origin: 'https://any-clinic.example' });

    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers.vary).toMatch(/\bAccept-Encoding\b/i);
    expect(res.headers['content-type']).toBe('text/javascript');
    expect(res.headers['cache-control']).toBe('max-age=31536000, immutable');
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(brotliDecompressSync(res.body).toString()).toBe(PART_CODE);
  });

  // A page open across a release asks for the part its module was built with: the current module instead would
  // be imported as the manage view, and never show it; a 404 lets the module say the view could not load.
  it.each([
    'clinic-booking-manage-0ldRe1ea.js',
    'clinic-booking-manage-de-0ldRe1ea.js',
    'clinic-booking-failures-0ldRe1ea.js',
    'clinic-booking-calendar-0ldRe1ea.js',
    'clinic-booking-seo-0ldRe1ea.js',
  ])(
    'answers 404, not the redirect to the current module, for %s when it is not there',
    async (file) => {
      const res = await fetch(`${bff.baseUrl}/widget/${file}`, { redirect: 'manual' });

      await expectError(res, 404, 'not_found');
    },
  );
});

describe('chooseEncoding (Accept-Encoding)', () => {
  it.each([
    ['gzip, deflate, br, zstd', 'br'],
    ['br;q=1.0, gzip;q=0.8, *;q=0.1', 'br'],
    ['gzip;q=1, br;q=0.5', 'gzip'],
    ['deflate, gzip', 'gzip'],
    ['br;q=0, gzip', 'gzip'],
    ['*', 'br'],
    ['identity', 'identity'],
    ['', 'identity'],
    [undefined, 'identity'],
    ['compress, deflate', 'identity'],
    ['BR ; Q=0.9, GZIP', 'gzip'],
  ])('chooses %j -> %s', (header, expected) => {
    expect(chooseEncoding(header)).toBe(expected);
  });
});
