import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { brotliDecompressSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { PAGE_CSS } from '../../../bff/demo/demo-page.js';
import { cspHashOf } from '../../../bff/http/security-headers.js';
import { loadBffConfig } from '../../../bff/config.js';
import { REPO_ROOT } from '../../server/support/server-process.js';
import { rawGet } from '../content/raw-get.js';
import { startBff, startStubUpstream } from '../support/bff-harness.js';

/**
 * The demo page at GET /: served only when DEMO_PAGE is on (npm start and npm
 * run dev turn it on), and naming nothing of the upstream when it is.
 */

const CREDENTIALS = { appKey: 'ck_demo_page', secret: 'demo-page-app-secret-0123456789' };
const SETTINGS = { APP_KEY: CREDENTIALS.appKey, APP_SECRET_KEY: CREDENTIALS.secret, BOOKING_REF_SECRET: 'demo-page-booking-reference-secret-0123456789' };

const stub = await startStubUpstream();
const bff = await startBff(stub.api, CREDENTIALS, { demoPage: true });
const bffWithoutDemo = await startBff(stub.api, CREDENTIALS);

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

  it('inlines its CSS in one <style>, allowed by its hash alone rather than any inline style', async () => {
    const res = await fetch(`${bff.baseUrl}/`);
    const html = await res.text();
    const styles = [...html.matchAll(/<style>([\s\S]*?)<\/style>/g)].map((match) => match[1]);
    const styleSrc = /(?:^|;)\s*style-src ([^;]*)/.exec(res.headers.get('content-security-policy') ?? '')?.[1];

    expect(styles).toEqual([PAGE_CSS]);
    expect(html).not.toMatch(/<link\b[^>]*rel="stylesheet"/);
    expect(styleSrc?.split(' ')).toEqual(["'self'", cspHashOf(PAGE_CSS)]);
  });

  it("is a London clinic's page in en-GB, with nothing for developers in its navigation", async () => {
    const html = await (await fetch(`${bff.baseUrl}/`)).text();

    expect(html).toContain('<html lang="en-GB">');
    expect(html).not.toMatch(/JSON|href="\/api\//);
  });

  it("holds the strict CSP of docs/embedding.md: no 'unsafe-inline', images only from itself", async () => {
    const csp = (await fetch(`${bff.baseUrl}/`)).headers.get('content-security-policy') ?? '';

    expect(csp).not.toContain('unsafe-inline');
    expect(csp).toMatch(/(?:^|;)img-src 'self' data:(?:;|$)/);
    expect(csp).toMatch(/(?:^|;)worker-src 'self' blob:(?:;|$)/);
  });

  it('has an inline favicon, so a browser asks for none', async () => {
    const html = await (await fetch(`${bff.baseUrl}/`)).text();

    expect(html).toMatch(/<link rel="icon" type="image\/svg\+xml" href="data:image\/svg\+xml,[^"]+">/);
  });

  it('answers compressed as Accept-Encoding allows, with Vary, and 304 to its ETag', async () => {
    const plain = await rawGet(`${bff.baseUrl}/`, {});
    const br = await rawGet(`${bff.baseUrl}/`, { 'accept-encoding': 'gzip, deflate, br' });
    const again = await rawGet(`${bff.baseUrl}/`, { 'accept-encoding': 'gzip, deflate, br', 'if-none-match': String(br.headers.etag) });

    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toMatch(/\bAccept-Encoding\b/i);
    expect(brotliDecompressSync(br.body).equals(plain.body)).toBe(true);
    expect(br.headers.etag).not.toBe(plain.headers.etag);
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
  });
});

describe('the demo page, when it is served', () => {
  it("names nothing of the upstream: neither its origin nor its host, and no preconnect", async () => {
    const html = await (await fetch(`${bff.baseUrl}/`)).text();
    const upstream = new URL(stub.api);

    expect(html).not.toContain(upstream.origin);
    expect(html).not.toContain(upstream.host);
    expect(html).not.toMatch(/<link\b[^>]*rel="(?:preconnect|dns-prefetch)"/);
  });
});

describe('without DEMO_PAGE', () => {
  it('answers GET / with 404 not_found in the error body, as any other unknown path', async () => {
    const res = await fetch(`${bffWithoutDemo.baseUrl}/`);

    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ success: false, error_code: 'not_found' });
  });

  it('reads DEMO_PAGE as off when unset, on for true', () => {
    const required = { UPSTREAM_URL: stub.api, ...SETTINGS };

    expect(loadBffConfig(required, '/nonexistent').demoPage).toBe(false);
    expect(loadBffConfig({ ...required, DEMO_PAGE: 'true' }, '/nonexistent').demoPage).toBe(true);
    expect(() => loadBffConfig({ ...required, DEMO_PAGE: 'sometimes' }, '/nonexistent')).toThrow('DEMO_PAGE');
  });

  describe('a BFF started from its settings alone (as `npm run start:bff`)', () => {
    let child: ChildProcess | undefined;
    let cwd: string;
    afterAll(async () => {
      if (child && child.exitCode === null) {
        const exited = new Promise((resolve) => child?.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(cwd, { recursive: true, force: true });
    });

    it('answers GET / with 404', async () => {
      // In a folder of its own, so no .env of a local demo is read.
      cwd = mkdtempSync(join(tmpdir(), 'bff-no-demo-'));
      const tsx = pathToFileURL(join(REPO_ROOT, 'node_modules/tsx/dist/loader.mjs')).href;
      const started = spawn(process.execPath, ['--import', tsx, join(REPO_ROOT, 'bff/main.ts')], {
        cwd,
        env: { PATH: process.env.PATH, UPSTREAM_URL: stub.api, ...SETTINGS, HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'info' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      child = started;
      let output = '';
      started.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
      const port = await new Promise<number>((resolve, reject) => {
        started.stdout.on('data', (chunk: Buffer) => {
          output += chunk.toString();
          const match = /"port":(\d+)/.exec(output);
          if (match) resolve(Number(match[1]));
        });
        started.once('exit', () => reject(new Error(`BFF exited during start-up:\n${output}`)));
      });

      const res = await fetch(`http://127.0.0.1:${port}/`);

      expect(res.status).toBe(404);
      expect(await res.json()).toMatchObject({ error_code: 'not_found' });
    });
  });
});
