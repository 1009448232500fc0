import { createServer, request, type Server } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBff } from '../../../bff/app.js';
import { loadBffConfig } from '../../../bff/config.js';
import { createWidgetDevProxy, type WidgetDevProxy } from '../../../bff/widget-hosting/widget-dev-proxy.js';
import { createHttpServer } from '../../../platform/fast-http/http-server.js';
import { silentLogger } from '../../support/silent-logger.js';
import { closeServer, listen } from '../support/bff-harness.js';

/** What a BFF needs to start; nothing here reaches the upstream API. */
const SETTINGS = {
  UPSTREAM_URL: 'http://127.0.0.1:9/api/v1',
  APP_KEY: 'ck_dev',
  APP_SECRET_KEY: 'dev-proxy-test-secret-0123456789',
  BOOKING_REF_SECRET: 'dev-proxy-booking-reference-secret-0123456789',
};

interface StubVite {
  url: string;
  requests: { url: string; host: string }[];
  upgrades: string[];
  close(): Promise<void>;
}

/** Stands in for Vite's dev server: answers any GET with its path, and echoes what a websocket sends. */
async function startStubVite(): Promise<StubVite> {
  const requests: StubVite['requests'] = [];
  const upgrades: string[] = [];
  const sockets = new Set<Duplex>();
  const server = createServer((req, res) => {
    requests.push({ url: req.url ?? '', host: req.headers.host ?? '' });
    res.writeHead(200, { 'content-type': 'text/javascript' }).end(`// ${req.url}`);
  });
  server.on('upgrade', (req, socket) => {
    upgrades.push(req.url ?? '');
    sockets.add(socket);
    socket.write('HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n');
    socket.pipe(socket);
  });
  const url = await listen(server);
  return {
    url,
    requests,
    upgrades,
    async close() {
      for (const socket of sockets) socket.destroy();
      await closeServer(server);
    },
  };
}

interface RunningDevBff {
  proxy: WidgetDevProxy;
  server: Server;
  baseUrl: string;
}

/** The BFF as bff/main.ts runs it with WIDGET_DEV_URL, upgrades wired, minus the signal handlers. */
async function startDevBff(widgetDevUrl: string): Promise<RunningDevBff> {
  const config = loadBffConfig({ ...SETTINGS, WIDGET_DEV_URL: widgetDevUrl, DEMO_PAGE: 'true' }, '/nonexistent');
  const proxy = await createWidgetDevProxy(config.widgetDevUrl!);
  const bff = createBff({ config, logger: silentLogger(), widgetDevProxy: proxy });
  const server = createHttpServer(bff.app);
  server.on('upgrade', proxy.upgrade);
  return { proxy, server, baseUrl: await listen(server) };
}

/** A websocket handshake, raw: resolves with the socket once the other end answers 101. */
function openWebSocket(url: string): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const req = request(url, {
      headers: { connection: 'Upgrade', upgrade: 'websocket', 'sec-websocket-version': '13', 'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==' },
    });
    req.on('upgrade', (_res, socket) => resolve(socket));
    req.on('response', (res) => reject(new Error(`answered ${res.statusCode} instead of upgrading`)));
    req.on('error', reject);
    req.end();
  });
}

function nextData(socket: Socket): Promise<string> {
  return new Promise((resolve) => socket.once('data', (chunk: Buffer) => resolve(chunk.toString())));
}

let vite: StubVite;
let dev: RunningDevBff;

beforeAll(async () => {
  vite = await startStubVite();
  dev = await startDevBff(vite.url);
});
afterAll(async () => {
  dev.proxy.closeWebSockets();
  await closeServer(dev.server);
  await vite.close();
});

describe('the widget dev proxy (WIDGET_DEV_URL)', () => {
  it('passes GET /widget/clinic-booking.js to Vite at the same path, with the widget mount\'s security headers', async () => {
    const res = await fetch(`${dev.baseUrl}/widget/clinic-booking.js`);

    expect(res.status).toBe(200);
    expect(await res.text()).toBe('// /widget/clinic-booking.js');
    expect(res.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    // changeOrigin: Vite sees its own address as Host, which it always allows.
    expect(vite.requests.at(-1)).toEqual({ url: '/widget/clinic-booking.js', host: new URL(vite.url).host });
  });

  it('passes the query string and deeper paths through unchanged', async () => {
    const res = await fetch(`${dev.baseUrl}/widget/@fs/work/node_modules/.vite/deps/lit.js?v=abc`);

    expect(await res.text()).toBe('// /widget/@fs/work/node_modules/.vite/deps/lit.js?v=abc');
  });

  it('carries a websocket under /widget/ (Vite\'s HMR socket) to Vite, both ways', async () => {
    const socket = await openWebSocket(`${dev.baseUrl}/widget/?token=abc`);
    try {
      const echoed = nextData(socket);
      socket.write('ping');

      expect(await echoed).toBe('ping');
      expect(vite.upgrades.at(-1)).toBe('/widget/?token=abc');
    } finally {
      socket.destroy();
    }
  });

  it('refuses a websocket anywhere else', async () => {
    const before = vite.upgrades.length;

    await expect(openWebSocket(`${dev.baseUrl}/api/?token=abc`)).rejects.toThrow();
    expect(vite.upgrades).toHaveLength(before);
  });

  it('ends the open websockets on closeWebSockets(), so the BFF can drain on SIGTERM', async () => {
    const socket = await openWebSocket(`${dev.baseUrl}/widget/`);
    const closed = new Promise((resolve) => socket.once('close', resolve));

    dev.proxy.closeWebSockets();

    await closed;
  });

  it('lets the demo page start workers from blob: URLs, which Vite\'s client waits for a restart in', async () => {
    const csp = (await fetch(`${dev.baseUrl}/`)).headers.get('content-security-policy');

    expect(csp).toContain("worker-src 'self' blob:");
  });

  it('answers 502 upstream_unavailable with the error body when Vite is not running', async () => {
    const stopped = await startStubVite();
    await stopped.close();
    const orphan = await startDevBff(stopped.url);
    try {
      const res = await fetch(`${orphan.baseUrl}/widget/clinic-booking.js`);

      expect(res.status).toBe(502);
      expect(await res.json()).toMatchObject({ success: false, error_code: 'upstream_unavailable' });
    } finally {
      await closeServer(orphan.server);
    }
  });
});

describe('without WIDGET_DEV_URL', () => {
  it('has no dev proxy and keeps the strict page CSP', async () => {
    const bff = createBff({ config: loadBffConfig(SETTINGS, '/nonexistent'), logger: silentLogger() });
    const server = createHttpServer(bff.app);
    const baseUrl = await listen(server);
    try {
      const csp = (await fetch(`${baseUrl}/`)).headers.get('content-security-policy');

      // Vite's overlay needs inline style elements; the page without it does not allow them.
      expect(csp).not.toMatch(/style-src [^;]*'unsafe-inline'/);
      expect(csp).toContain("script-src 'self'");
    } finally {
      await closeServer(server);
    }
  });
});
