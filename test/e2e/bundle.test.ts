import { readdirSync, readFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { startBff, startStubUpstream } from '../bff/support/bff-harness.js';
import { builtWidget, ensureWidgetBuilt, WIDGET_DIR } from './support/stack.js';

/**
 * The budget for everything loaded on first render, the loader and the module it imports, as brotli
 * sends them: every browser that runs the widget accepts br over HTTPS, where clinics serve the BFF
 * (decision 10 states the budget so). The gzip copy, for the rare client without br, is checked to be
 * the same code and reported, not held to the budget.
 */
const BUDGET_BROTLI_BYTES = 25 * 1024;
/**
 * Lighthouse (bench:widget) counts a script as transferred: its response headers with its body. The same
 * 25 KiB holds for both responses so counted, as the BFF sends them over HTTP/1.1 to a page elsewhere.
 */
const BUDGET_TRANSFERRED_BYTES = 25 * 1024;

/** GET as a page on another origin loads a module script: the status line and header block's bytes, and the body's. */
function transferred(url: string): Promise<{ headerBytes: number; bodyBytes: number }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers: { 'accept-encoding': 'gzip, deflate, br, zstd', origin: 'https://clinic.example' } }, (res) => {
      let lines = `HTTP/${res.httpVersion} ${res.statusCode} ${res.statusMessage}\r\n`;
      for (let i = 0; i < res.rawHeaders.length; i += 2) lines += `${res.rawHeaders[i]}: ${res.rawHeaders[i + 1]}\r\n`;
      let bodyBytes = 0;
      res.on('data', (chunk: Buffer) => (bodyBytes += chunk.length));
      res.on('end', () => resolve({ headerBytes: Buffer.byteLength(`${lines}\r\n`), bodyBytes }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}
/** A language pack is the one extra request of a first render in that language: small, each on its own. */
const PACK_BUDGET_BROTLI_BYTES = 3 * 1024;
const PACK_LANGUAGES = ['ar', 'de', 'es', 'fr', 'nl'];
const PACK_NAME = /^i18n-([a-z]+)-[\w-]+\.js$/;

/** The language packs in the build (vite.config.ts), by language. */
const packs = () => readdirSync(WIDGET_DIR).filter((name) => PACK_NAME.test(name));

/**
 * What the module fetches only when needed besides the packs: a booking's manage view, a module of
 * its own with its own language packs, the sentences for the BFF's refusals, the calendar file's
 * builder and the structured data's, modules of their own too (vite.config.ts).
 */
const MANAGE_VIEW = /^clinic-booking-manage-[\w-]{8}\.js$/;
const MANAGE_PACK = /^clinic-booking-manage-([a-z]{2})-[\w-]+\.js$/;
const FAILURES = /^clinic-booking-failures-[\w-]+\.js$/;
const CALENDAR = /^clinic-booking-calendar-[\w-]+\.js$/;
const STRUCTURED_DATA = /^clinic-booking-seo-[\w-]+\.js$/;
const onDemand = () => readdirSync(WIDGET_DIR).filter((name) => [MANAGE_VIEW, MANAGE_PACK, FAILURES, CALENDAR, STRUCTURED_DATA].some((part) => part.test(name)));
const named = (pattern: RegExp) => readdirSync(WIDGET_DIR).filter((name) => pattern.test(name));

interface Manifest {
  modules: { declarations?: { tagName?: string; attributes?: { name: string }[]; events?: { name: string }[]; cssProperties?: { name: string }[]; cssParts?: { name: string }[] }[] }[];
}

describe('the built widget', () => {
  beforeAll(async () => {
    await ensureWidgetBuilt();
  });

  it('is a loader and one hashed module, together within 25 KiB as brotli sends them, English built in', () => {
    const { loader, moduleName, module } = builtWidget();
    // What a browser receives: the loader (compressed or not, whichever is smaller) and the module's
    // precompressed .br the BFF sends (checked below to decompress to the module).
    const sent = Math.min(loader.length, brotliCompressSync(loader).length) + readFileSync(join(WIDGET_DIR, `${moduleName}.br`)).length;
    expect(sent).toBeLessThanOrEqual(BUDGET_BROTLI_BYTES);
    // No static imports: the first render needs nothing else. The only dynamic import()s are the language
    // packs, the manage view, the failure sentences, the calendar file and the structured data, each fetched when needed.
    expect(module.toString()).not.toMatch(/^import\b|[;}]import\s*["'{*]/m);
    const imported = [...module.toString().matchAll(/\bimport\s*\(\s*["'`]\.\/([^"'`]+)["'`]\s*\)/g)].map((match) => match[1]);
    expect(imported.sort()).toEqual([...packs(), ...named(MANAGE_VIEW), ...named(FAILURES), ...named(CALENDAR), ...named(STRUCTURED_DATA)].sort());
    expect(module.toString().match(/\bimport\s*\(/g)).toHaveLength(imported.length);
    // The module exports the element alone: nothing of it is shared with the files fetched later.
    expect(module.toString()).toMatch(/export\s*\{\s*\w+ as ClinicBooking\s*\};?\s*$/);
    // English is in the module itself, and no other language's strings are.
    expect(module.toString()).toContain('Book an appointment');
    expect(module.toString()).not.toContain('Termin buchen');
    // In the folder: the loader, the module, the packs, the files fetched on demand, their precompressed
    // copies and the manifest.
    const compressed = (name: string) => [name, `${name}.br`, `${name}.gz`];
    expect(readdirSync(WIDGET_DIR).sort()).toEqual(
      ['clinic-booking.js', ...compressed(moduleName), ...[...packs(), ...onDemand()].flatMap(compressed), 'custom-elements.json'].sort(),
    );
  });

  it('is within 25 KiB as Lighthouse counts it, response headers included, as the BFF serves it', async () => {
    const { moduleName } = builtWidget();
    const stub = await startStubUpstream();
    const bff = await startBff(stub.api, { appKey: 'ck_bundle', secret: 'sk_bundle' }, { widgetDir: WIDGET_DIR });
    const loader = await transferred(`${bff.baseUrl}/widget/clinic-booking.js`);
    const module = await transferred(`${bff.baseUrl}/widget/${moduleName}`);
    const total = loader.headerBytes + loader.bodyBytes + module.headerBytes + module.bodyBytes;
    console.log(`widget as transferred: loader ${loader.headerBytes} + ${loader.bodyBytes} B, module ${module.headerBytes} + ${module.bodyBytes} B (headers + body), ${total} B in all`);
    expect(total).toBeLessThanOrEqual(BUDGET_TRANSFERRED_BYTES);
  });

  it('has a manage view that imports nothing of the module, with a language pack for each language but English', () => {
    const [view] = named(MANAGE_VIEW);
    const code = readFileSync(join(WIDGET_DIR, view!)).toString();
    expect(code).not.toMatch(/^import\b|[;}]import\s*["'{*]/m);
    const imported = [...code.matchAll(/\bimport\s*\(\s*["'`]\.\/([^"'`]+)["'`]\s*\)/g)].map((match) => match[1]);
    expect(imported.sort()).toEqual([...named(MANAGE_PACK), ...named(FAILURES)].sort());
    expect(named(MANAGE_PACK).map((name) => MANAGE_PACK.exec(name)?.[1]).sort()).toEqual(PACK_LANGUAGES);
    const br = readFileSync(join(WIDGET_DIR, `${view}.br`));
    expect(brotliDecompressSync(br).toString()).toBe(code);
    console.log(`manage view: ${code.length} B, ${br.length} B as brotli sends it`);
  });

  it("has a booking's calendar file builder as a part of its own, which imports nothing and Lit is no part of", () => {
    const [part] = named(CALENDAR);
    const code = readFileSync(join(WIDGET_DIR, part!)).toString();
    expect(code).not.toMatch(/\bimport\b/);
    expect(code).toContain('BEGIN:VCALENDAR');
    expect(builtWidget().module.toString()).not.toContain('BEGIN:VCALENDAR');
    const br = readFileSync(join(WIDGET_DIR, `${part}.br`));
    expect(brotliDecompressSync(br).toString()).toBe(code);
    // The builder and the clinic's clock it reads: a kilobyte would mean something else came with them.
    expect(br.length).toBeLessThanOrEqual(1024);
  });

  it("has the clinic's structured data (JSON-LD) as a part of its own, which imports nothing and Lit is no part of", () => {
    const [part] = named(STRUCTURED_DATA);
    const code = readFileSync(join(WIDGET_DIR, part!)).toString();
    expect(code).not.toMatch(/\bimport\b/);
    expect(code).toContain('OpeningHoursSpecification');
    expect(builtWidget().module.toString()).not.toContain('OpeningHoursSpecification');
    const br = readFileSync(join(WIDGET_DIR, `${part}.br`));
    expect(brotliDecompressSync(br).toString()).toBe(code);
    expect(gunzipSync(readFileSync(join(WIDGET_DIR, `${part}.gz`))).toString()).toBe(code);
    // The builder and the day names it lists: a kilobyte would mean something else came with them.
    expect(br.length).toBeLessThanOrEqual(1024);
    console.log(`structured data: ${code.length} B, ${br.length} B as brotli sends it`);
  });

  it('has one small language pack for each language but English, each with brotli and gzip copies of its code', () => {
    expect(packs().map((name) => PACK_NAME.exec(name)?.[1]).sort()).toEqual(PACK_LANGUAGES);
    for (const pack of packs()) {
      const code = readFileSync(join(WIDGET_DIR, pack));
      const br = readFileSync(join(WIDGET_DIR, `${pack}.br`));
      expect(brotliDecompressSync(br).equals(code), pack).toBe(true);
      expect(gunzipSync(readFileSync(join(WIDGET_DIR, `${pack}.gz`))).equals(code), pack).toBe(true);
      expect(br.length, pack).toBeLessThanOrEqual(PACK_BUDGET_BROTLI_BYTES);
      // A pack is strings only: it imports nothing, so it is one request.
      expect(code.toString(), pack).not.toMatch(/\bimport\b/);
    }
  });

  it('ships brotli and gzip copies of the module, each the same code, brotli the smaller', () => {
    const { moduleName, module } = builtWidget();
    const br = readFileSync(join(WIDGET_DIR, `${moduleName}.br`));
    const gz = readFileSync(join(WIDGET_DIR, `${moduleName}.gz`));
    expect(brotliDecompressSync(br).equals(module)).toBe(true);
    expect(gunzipSync(gz).equals(module)).toBe(true);
    expect(br.length).toBeLessThan(gz.length);
  });

  it("keeps the module beside the loader, so the module's own URL still finds the BFF at ../api", () => {
    const { moduleName, module } = builtWidget();
    const loaderUrl = 'https://bff.example/widget/clinic-booking.js';
    const moduleUrl = new URL(`./${moduleName}`, loaderUrl).href;
    expect(new URL('../api', moduleUrl).href).toBe('https://bff.example/api');
    expect(module.toString()).toMatch(/new URL\(\s*[`'"]\.\.\/api[`'"]\s*,\s*import\.meta\.url\s*\)/);
  });

  it('ships a custom-elements.json that documents the element, its attributes, events, properties and parts', () => {
    const manifest = JSON.parse(readFileSync(join(WIDGET_DIR, 'custom-elements.json'), 'utf8')) as Manifest;
    const element = manifest.modules.flatMap((module) => module.declarations ?? []).find((d) => d.tagName === 'clinic-booking');
    expect(element).toBeDefined();
    expect(element!.attributes!.map((a) => a.name)).toEqual(
      expect.arrayContaining(['api-base', 'sections', 'mode', 'treatment', 'doctor', 'patient-name', 'patient-phone', 'success-url', 'privacy-url']),
    );
    expect(element!.events!.map((e) => e.name)).toEqual(
      expect.arrayContaining(['clinic-booking:ready', 'clinic-booking:booked', 'clinic-booking:error']),
    );
    expect(element!.cssProperties!.map((p) => p.name)).toEqual(
      expect.arrayContaining(['--clinic-booking-primary', '--clinic-booking-secondary', '--clinic-booking-dark', '--clinic-booking-font', '--clinic-booking-radius']),
    );
    expect(element!.cssParts!.map((p) => p.name)).toEqual(expect.arrayContaining(['hero', 'booking-form', 'submit', 'status-result']));
  });
});
