/**
 * npm run screenshots:other: the manage view's states (scripts/support/manage-scenes.ts, the ones
 * npm run screenshots takes in Chromium) in Firefox and in WebKit, at 390 and 1280 px, in English,
 * German and Arabic, to screenshots/<browser>/<lang>-<width>-m<n>-<state>.png (git-ignored), to
 * set beside Chromium's screenshots/<lang>-<width>-m<n>-<state>.png. `npm run build` first.
 *
 * Neither browser is one Playwright can drive here (it drives only the builds it downloads):
 * - Firefox: Debian's firefox-esr (FIREFOX_PATH), headless, by puppeteer-core (which comes with
 *   @web/test-runner-chrome) over WebDriver BiDi, with overlay scrollbars, as a phone has them (a
 *   classic one takes 12 px of a 390 px page);
 * - WebKit: WebKitGTK's MiniBrowser by WebKitWebDriver in Xvfb (test/e2e/support/webkit.ts; Debian's
 *   webkit2gtk-driver and xvfb, scripts/ensure-webkit.mjs). Its window is never narrower than 447 px,
 *   so the page itself is made as wide as the width shot (the widget lays out by container queries,
 *   not by the viewport); the picture is the window's, cut to the widget. Without a window manager
 *   the window has focus (and a focused element its ring) only while the X pointer is over it:
 *   xdotool (Debian: xdotool) puts it there.
 * Both in Europe/London, the clinic's zone. Rather than stubbing inside the browser (Playwright's
 * page.route), the page loads the widget through a small proxy in front of the BFF that answers
 * POST /api/appointments/status and /change-requests with the scene's stubbed answers and passes the
 * rest (the widget, content, availability) to the stack's BFF.
 *
 * BROWSERS=firefox (or webkit) takes one; LANGS=en,ar some languages (the wished days then differ
 * from Chromium's, which counts them across all three).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, request, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { crc32, deflateSync, inflateSync } from 'node:zlib';
import puppeteer, { type ElementHandle } from 'puppeteer-core';
import { firefoxPath } from './ensure-firefox.mjs';
import { REPO_ROOT, startE2eStack, WIDGET_BUNDLE } from '../test/e2e/support/stack.js';
import { openWebKit, webKitInstalled } from '../test/e2e/support/webkit.js';
import {
  freshDays,
  MANAGE_REFERENCE,
  manageBooking,
  manageScenes,
  pageHtml,
  REFUSAL,
  statusAnswer,
  takeChange,
  type ChangeRequest,
  type ManageBooking,
  type ManageOps,
} from './support/manage-scenes.js';

const OUT = join(REPO_ROOT, 'screenshots');
const WIDTHS = [390, 1280];
const LANGS = process.env.LANGS?.split(',') ?? ['en', 'de', 'ar'];
const BROWSERS = process.env.BROWSERS?.split(',') ?? ['firefox', 'webkit'];
const FIREFOX = firefoxPath();
const XDOTOOL = '/usr/bin/xdotool';
const ZONE = { TZ: 'Europe/London' };
const TIMEOUT_MS = 15_000;
/** A short pause before each picture, as screenshots.ts makes, for the last render and transition. */
const SETTLE_MS = 300;

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `check` until it is true, or throws naming `what`. */
async function until(check: () => Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + TIMEOUT_MS;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await pause(100);
  }
}

/** What the stub answers for the scene being shot. */
interface StubState {
  booking: ManageBooking;
  status: string;
  changes: Record<string, unknown>;
  refuse: boolean;
}

/** The proxy in front of the BFF: the stubbed status and change requests, the rest passed on. */
async function startStub(bff: string): Promise<{ origin: string; state?: StubState; close(): Promise<void> }> {
  const upstream = new URL(bff);
  const stub = {
    origin: '',
    state: undefined as StubState | undefined,
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  const answer = (req: IncomingMessage, res: ServerResponse, status: number, json: object, headers: Record<string, string> = {}) =>
    res
      .writeHead(status, {
        'content-type': 'application/json',
        'cache-control': 'no-store',
        // CORS as the BFF answers its allowed origin (the preflight itself goes to the BFF).
        'access-control-allow-origin': req.headers.origin ?? '*',
        vary: 'Origin',
        ...headers,
      })
      .end(JSON.stringify(json));
  const server = createServer((req, res) => {
    const state = stub.state;
    if (req.method === 'POST' && state && (req.url === '/api/appointments/status' || req.url === '/api/appointments/change-requests')) {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        if (req.url === '/api/appointments/status') return answer(req, res, 200, statusAnswer(state.booking, state.status, state.changes));
        if (state.refuse) return answer(req, res, REFUSAL.status, REFUSAL.json, REFUSAL.headers);
        const taken = takeChange(state.changes, JSON.parse(body) as ChangeRequest);
        state.changes = taken.changes;
        answer(req, res, 200, taken.answer);
      });
      return;
    }
    const onward = request({ host: upstream.hostname, port: upstream.port, path: req.url, method: req.method, headers: req.headers }, (up) => {
      res.writeHead(up.statusCode ?? 502, up.headers);
      up.pipe(res);
    });
    onward.on('error', () => res.destroy());
    req.pipe(onward);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  stub.origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return stub;
}

/** One page open in a browser: the scene's operations on its manage view, and its picture. */
interface Session {
  ops: Omit<ManageOps, 'refuseChanges'>;
  /** Writes the picture of the widget's [part="booking"] to `path`. */
  shoot(path: string): Promise<void>;
  close(): Promise<void>;
}

interface Driver {
  /** Opens the manage page of `lang` at `width` px, once the view shows the booking. */
  open(lang: string, width: number): Promise<Session>;
  quit(): Promise<void>;
}

/** The nth element matching `selector` in the manage view's shadow root (a function body run in the page). */
const FIND_IN_VIEW = `const view = document.querySelector('clinic-booking')?.shadowRoot?.querySelector('clinic-booking-manage')?.shadowRoot;
  return view?.querySelectorAll(arguments[0])[arguments[1]] ?? null;`;
const COUNT_IN_VIEW = `const view = document.querySelector('clinic-booking')?.shadowRoot?.querySelector('clinic-booking-manage')?.shadowRoot;
  return view?.querySelectorAll(arguments[0]).length ?? 0;`;
/** Focuses a field and sets its value with an input event, as Playwright's fill does. */
const FILL_IN_VIEW = `const view = document.querySelector('clinic-booking').shadowRoot.querySelector('clinic-booking-manage').shadowRoot;
  const field = view.querySelector(arguments[0]);
  field.focus();
  field.value = arguments[1];
  field.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
  return true;`;
const PART = `return document.querySelector('clinic-booking').shadowRoot.querySelector('[part="booking"]');`;

/** Firefox ESR by puppeteer-core over WebDriver BiDi; a fresh browser context per page. */
async function firefox(manageUrl: (lang: string) => string): Promise<Driver> {
  const browser = await puppeteer.launch({
    browser: 'firefox',
    executablePath: FIREFOX,
    headless: true,
    extraPrefsFirefox: { 'ui.useOverlayScrollbars': 1 },
    env: { ...process.env, ...ZONE },
  });
  return {
    async open(lang, width) {
      const context = await browser.createBrowserContext();
      const page = await context.newPage();
      await page.setViewport({ width, height: 900 });
      await page.goto(manageUrl(lang));
      const run = <T>(body: string, ...args: unknown[]) => page.evaluate(new Function(body) as (...a: unknown[]) => T, ...args);
      const count = (selector: string) => run<number>(COUNT_IN_VIEW, selector);
      const find = async (selector: string, nth: number) => (await page.evaluateHandle(new Function(FIND_IN_VIEW) as () => unknown, selector, nth)).asElement() as unknown as ElementHandle | null;
      await until(async () => (await count('dl')) > 0, 'the booking');
      return {
        ops: {
          count,
          async click(selector, nth = 0) {
            await until(async () => (await count(selector)) > nth, selector);
            await (await find(selector, nth))!.click();
          },
          fill: async (selector, text) => void (await run(FILL_IN_VIEW, selector, text)),
          waitFor: (selector) => until(async () => (await count(selector)) > 0, selector),
        },
        async shoot(path) {
          await pause(SETTLE_MS);
          const part = (await page.evaluateHandle(new Function(PART) as () => unknown)).asElement() as unknown as ElementHandle;
          await part.screenshot({ path: path as `${string}.png` });
        },
        close: () => context.close(),
      };
    },
    quit: () => browser.close(),
  };
}

/** A WebDriver element reference's id. */
type ElementRef = Record<string, string>;

/**
 * WebKitGTK's MiniBrowser by WebKitWebDriver, one session for all pages, each page as wide as the
 * width shot (`narrowPage`, which main serves). The picture is the window's, made as tall as the page, cut to the
 * widget's part (WebKitGTK's element screenshots come out shifted or blank past the first screen).
 */
async function webkit(manageUrl: (lang: string) => string): Promise<Driver> {
  const browser = await openWebKit({ screen: '1400x6000', env: ZONE });
  // With no window manager, a window has focus while the pointer is over it: on its title bar, away from the page.
  if (existsSync(XDOTOOL)) execFileSync(XDOTOOL, ['mousemove', '600', '10'], { env: { ...process.env, DISPLAY: browser.display } });
  else process.stderr.write('webkit: no xdotool (Debian: xdotool), so the window has no focus and no focus ring shows\n');
  const run = <T>(body: string, ...args: unknown[]) => browser.send<T>('POST', '/execute/sync', { script: body, args });
  const windowWidth = 1320;
  return {
    async open(lang) {
      await browser.send('POST', '/window/rect', { width: windowWidth, height: 1000 });
      // Through a blank page: the same address again, with only its fragment new, would not load the page anew.
      await browser.send('POST', '/url', { url: 'about:blank' });
      await browser.send('POST', '/url', { url: manageUrl(lang) });
      const count = (selector: string) => run<number>(COUNT_IN_VIEW, selector);
      await until(async () => (await count('dl')) > 0, 'the booking');
      return {
        ops: {
          count,
          async click(selector, nth = 0) {
            await until(async () => (await count(selector)) > nth, selector);
            const element = await run<ElementRef>(FIND_IN_VIEW, selector, nth);
            await browser.send('POST', `/element/${Object.values(element)[0]}/click`, {});
          },
          fill: async (selector, text) => void (await run(FILL_IN_VIEW, selector, text)),
          waitFor: (selector) => until(async () => (await count(selector)) > 0, selector),
        },
        async shoot(path) {
          await pause(SETTLE_MS);
          const height = await run<number>('return document.documentElement.scrollHeight');
          await browser.send('POST', '/window/rect', { width: windowWidth, height: Math.max(1000, height + 100) });
          await pause(SETTLE_MS);
          const [left, top, w, h] = await run<[number, number, number, number]>(`scrollTo(0, 0);
            const r = document.querySelector('clinic-booking').shadowRoot.querySelector('[part="booking"]').getBoundingClientRect();
            return [Math.floor(r.left), Math.floor(r.top), Math.ceil(r.right) - Math.floor(r.left), Math.ceil(r.bottom) - Math.floor(r.top)];`);
          const png = Buffer.from(await browser.send<string>('GET', '/screenshot'), 'base64');
          writeFileSync(path, cropPng(png, left, top, w, h));
        },
        close: async () => undefined,
      };
    },
    quit: () => browser.close(),
  };
}

/**
 * The page WebKit opens: the manage page, `width` px wide in a wider window. The widget sizes itself
 * by container queries, never by the viewport (inline, as here), so it lays out as in a viewport that
 * wide. (In an iframe that wide, WebKitGTK's screenshots left focus rings and newly shown parts unpainted.)
 */
const narrowPage = (page: string, width: number) => page.replace('</head>', `<style>html { width: ${width}px; }</style></head>`);

/** A rectangle of a PNG (8-bit RGB or RGBA, not interlaced, as WebKit writes them), as a PNG. */
function cropPng(png: Buffer, left: number, top: number, width: number, height: number): Buffer {
  const ihdr = png.subarray(16, 29);
  const [fullWidth, fullHeight, depth, colour, interlace] = [ihdr.readUInt32BE(0), ihdr.readUInt32BE(4), ihdr[8], ihdr[9], ihdr[12]];
  const bpp = colour === 6 ? 4 : colour === 2 ? 3 : 0;
  if (depth !== 8 || !bpp || interlace) throw new Error(`unexpected PNG: depth ${depth}, colour type ${colour}, interlace ${interlace}`);
  const idat: Buffer[] = [];
  for (let at = 8; at < png.length; ) {
    const length = png.readUInt32BE(at);
    if (png.toString('latin1', at + 4, at + 8) === 'IDAT') idat.push(png.subarray(at + 8, at + 8 + length));
    at += 12 + length;
  }
  // Undo each row's filter (PNG spec, section 9), keeping the rows asked for.
  const raw = inflateSync(Buffer.concat(idat));
  const stride = fullWidth * bpp;
  let previous = Buffer.alloc(stride);
  const rows: Buffer[] = [];
  const bottom = Math.min(top + height, fullHeight);
  for (let y = 0; y < bottom; y++) {
    const filter = raw[y * (stride + 1)];
    const row = Buffer.from(raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1)));
    for (let x = 0; x < stride; x++) {
      const a = x >= bpp ? row[x - bpp]! : 0;
      const b = previous[x]!;
      const c = x >= bpp ? previous[x - bpp]! : 0;
      const p = a + b - c;
      const paeth = Math.abs(p - a) <= Math.abs(p - b) && Math.abs(p - a) <= Math.abs(p - c) ? a : Math.abs(p - b) <= Math.abs(p - c) ? b : c;
      row[x] = (row[x]! + [0, a, b, (a + b) >> 1, paeth][filter!]!) & 0xff;
    }
    if (y >= top) rows.push(Buffer.concat([Buffer.of(0), row.subarray(left * bpp, Math.min(left + width, fullWidth) * bpp)]));
    previous = row;
  }
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const frame = Buffer.alloc(12 + data.length);
    frame.writeUInt32BE(data.length, 0);
    body.copy(frame, 4);
    frame.writeUInt32BE(crc32(body), 8 + data.length);
    return frame;
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(Math.min(width, fullWidth - left), 0);
  header.writeUInt32BE(rows.length, 4);
  header.set([8, colour!, 0, 0, 0], 8);
  return Buffer.concat([png.subarray(0, 8), chunk('IHDR', header), chunk('IDAT', deflateSync(Buffer.concat(rows))), chunk('IEND', Buffer.alloc(0))]);
}

async function main(): Promise<void> {
  if (!existsSync(WIDGET_BUNDLE)) throw new Error('no built widget: run npm run build first');
  if (BROWSERS.includes('webkit') && !webKitInstalled()) throw new Error('WebKit is missing: node scripts/ensure-webkit.mjs installs webkit2gtk-driver and xvfb');
  if (BROWSERS.includes('firefox') && !existsSync(FIREFOX)) throw new Error(`no Firefox at ${FIREFOX}: apt-get install firefox-esr, or set FIREFOX_PATH`);
  const stack = await startE2eStack();
  const stub = await startStub(stack.bff.baseUrl);
  const manageUrl = (lang: string) => `${stack.site.origin}/${lang}/manage.html#clinic-booking-manage=${MANAGE_REFERENCE}`;
  let failed = 0;
  try {
    const booking = await manageBooking(stack);
    for (const name of BROWSERS) {
      const dir = join(OUT, name);
      mkdirSync(dir, { recursive: true });
      for (const file of readdirSync(dir)) if (file.endsWith('.png')) rmSync(join(dir, file));
      const driver = name === 'firefox' ? await firefox(manageUrl) : name === 'webkit' ? await webkit(manageUrl) : undefined;
      if (!driver) throw new Error(`unknown browser ${name}: firefox or webkit`);
      const freshDay = freshDays();
      try {
        for (const lang of LANGS) {
          for (const width of WIDTHS) {
            const page = pageHtml(stub.origin, lang, 'sections="booking"');
            stack.site.pages.set(`/${lang}/manage.html`, name === 'webkit' ? narrowPage(page, width) : page);
            for (const scene of manageScenes(lang, freshDay)) {
              stub.state = { booking, status: scene.status ?? 'Scheduled', changes: scene.changes, refuse: false };
              const file = join(dir, `${lang}-${width}-m${scene.n}-${scene.name}.png`);
              const session = await driver.open(lang, width);
              try {
                await scene.act?.({ ...session.ops, refuseChanges: async () => void (stub.state!.refuse = true) });
                await session.shoot(file);
              } catch (error) {
                failed++;
                process.stderr.write(`${name} ${lang} ${width} m${scene.n}: ${String(error)}\n`);
                await session.shoot(file.replace(/\.png$/, '.failed.png')).catch(() => undefined);
              } finally {
                await session.close();
              }
            }
            process.stdout.write(`${name}: manage view ${lang} ${width} px\n`);
          }
        }
      } finally {
        await driver.quit();
      }
    }
  } finally {
    await stub.close();
    await stack.close();
  }
  process.stdout.write(`screenshots in ${BROWSERS.map((name) => join(OUT, name)).join(' and ')}\n`);
  if (failed) throw new Error(`${failed} state(s) failed: their pictures are *.failed.png`);
}

await main();
