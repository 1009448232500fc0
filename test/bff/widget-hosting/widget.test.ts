import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBff, startStubUpstream, type RunningBff, type StubUpstream } from '../support/bff-harness.js';

const BUILT = 'widget/dist';
const CREDENTIALS = { appKey: 'ck_widget', secret: 'widget-test-app-secret-0123456789' };

/**
 * The built widget when there is one with a chunk; otherwise a temporary
 * folder shaped like vite's output, so hosting is tested before the widget exists.
 */
function widgetFolder(): { dir: string; chunk: string; temporary: boolean } {
  const builtChunks = join(BUILT, 'chunks');
  const builtChunk = existsSync(builtChunks) ? readdirSync(builtChunks).find((name) => name.endsWith('.js')) : undefined;
  if (existsSync(join(BUILT, 'clinic-booking.js')) && builtChunk) return { dir: BUILT, chunk: builtChunk, temporary: false };
  const dir = mkdtempSync(join(tmpdir(), 'clinic-widget-'));
  mkdirSync(join(dir, 'chunks'));
  writeFileSync(join(dir, 'clinic-booking.js'), "import('./chunks/abc123.js');\ncustomElements.define('clinic-booking', class extends HTMLElement {});\n");
  writeFileSync(join(dir, 'chunks', 'abc123.js'), 'export const chunk = 1;\n');
  return { dir, chunk: 'abc123.js', temporary: true };
}

const widget = widgetFolder();
let stub: StubUpstream;
let bff: RunningBff;
let emptyDir: string;
let bffWithoutWidget: RunningBff;

beforeAll(async () => {
  stub = await startStubUpstream();
  bff = await startBff(stub.api, CREDENTIALS, { widgetDir: widget.dir });
  emptyDir = mkdtempSync(join(tmpdir(), 'clinic-widget-empty-'));
  bffWithoutWidget = await startBff(stub.api, CREDENTIALS, { widgetDir: emptyDir });
});
afterAll(async () => {
  await bff.close();
  await bffWithoutWidget.close();
  await stub.close();
  if (widget.temporary) rmSync(widget.dir, { recursive: true, force: true });
  rmSync(emptyDir, { recursive: true, force: true });
});

const maxAge = (cacheControl: string | null) => Number(/max-age=(\d+)/.exec(cacheControl ?? '')?.[1]);

describe('GET /widget/clinic-booking.js', () => {
  it('answers the entry script as JavaScript that any site may load', async () => {
    const res = await fetch(`${bff.baseUrl}/widget/clinic-booking.js`, { headers: { origin: 'https://any-clinic.example' } });

    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^(text|application)\/javascript/);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(await res.text()).toBe(readFileSync(join(widget.dir, 'clinic-booking.js'), 'utf8'));
  });

  it('lets browsers and CDNs cache the stable entry name for five minutes only', async () => {
    const res = await fetch(`${bff.baseUrl}/widget/clinic-booking.js`);

    expect(res.headers.get('cache-control')).toMatch(/\bpublic\b/);
    expect(maxAge(res.headers.get('cache-control'))).toBe(300);
    expect(res.headers.get('cache-control')).not.toMatch(/immutable/);
  });

  it('answers 404 with the spec body when the widget has not been built', async () => {
    const res = await fetch(`${bffWithoutWidget.baseUrl}/widget/clinic-booking.js`);

    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ success: false, message: expect.any(String), error_code: 'not_found' });
  });
});

describe('GET /widget/chunks/*', () => {
  it('answers a hashed chunk as JavaScript, cached as immutable for a long time, loadable from any site', async () => {
    const res = await fetch(`${bff.baseUrl}/widget/chunks/${widget.chunk}`);

    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^(text|application)\/javascript/);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('cache-control')).toMatch(/\bimmutable\b/);
    expect(maxAge(res.headers.get('cache-control'))).toBeGreaterThanOrEqual(30 * 24 * 3600);
    expect(await res.text()).toBe(readFileSync(join(widget.dir, 'chunks', widget.chunk), 'utf8'));
  });

  it('answers 404 with the spec body for a chunk that does not exist', async () => {
    const res = await fetch(`${bff.baseUrl}/widget/chunks/nope123.js`);

    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ success: false, message: expect.any(String), error_code: 'not_found' });
  });

  it('serves nothing outside the chunks folder through an encoded dot segment', async () => {
    const res = await fetch(`${bff.baseUrl}/widget/chunks/..%2Fclinic-booking.js`);

    expect(res.status).toBe(404);
    expect(res.headers.get('cache-control') ?? '').not.toMatch(/immutable/);
  });
});

describe('GET / (the demo page)', () => {
  it('answers HTML with the <clinic-booking> element and the widget script tag', async () => {
    const res = await fetch(`${bff.baseUrl}/`);

    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await res.text();
    expect(html).toMatch(/<clinic-booking[\s>]/);
    expect(html).toContain('</clinic-booking>');
    expect(html).toMatch(/<script\b[^>]*\bsrc="\/widget\/clinic-booking\.js"[^>]*><\/script>/);
  });

  it('carries helmet security headers: a Content-Security-Policy and nosniff', async () => {
    const res = await fetch(`${bff.baseUrl}/`);

    expect(res.headers.get('content-security-policy')).toMatch(/script-src 'self'/);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('x-powered-by')).toBeNull();
  });
});
