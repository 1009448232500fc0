import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { systemClock, type Clock } from '../../../platform/clock.js';
import { ClinicStore } from '../../../server/clinics/clinic.store.js';
import { ClinicFile } from '../../../server/clinics/clinic-file.js';
import { AuthService } from '../../../server/auth/auth.service.js';
import { KeyStore } from '../../../server/auth/key.store.js';
import { TokenStore } from '../../../server/auth/token.store.js';
import { demoClinic } from '../../../server/demo/demo-clinic.js';
import type { BffConfig } from '../../../bff/config.js';
import { DEFAULT_BOOKING_RULES } from '../../../contract/rules/booking-rules.js';
import { removeDb, startTestServer, type SeededClinic, type TestServer } from '../../server/support/test-server.js';
import { REPO_ROOT } from '../../server/support/server-process.js';
import { startBff, type RunningBff } from '../../bff/support/bff-harness.js';

export { REPO_ROOT };

const run = promisify(execFile);

export const WIDGET_DIR = join(REPO_ROOT, 'widget', 'dist');
export const WIDGET_BUNDLE = join(WIDGET_DIR, 'clinic-booking.js');

function newestSourceMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== 'dist' && entry.name !== 'node_modules') newest = Math.max(newest, newestSourceMtime(path));
    } else if (entry.name.endsWith('.ts')) {
      newest = Math.max(newest, statSync(path).mtimeMs);
    }
  }
  return newest;
}

/**
 * Builds widget/dist/clinic-booking.js with `npx vite build` (repo root) when
 * it is missing or older than any widget source. vite empties widget/dist, so
 * the custom-elements manifest is regenerated too, as `npm run build:widget` does.
 */
export async function ensureWidgetBuilt(): Promise<void> {
  const stale =
    !existsSync(WIDGET_BUNDLE) ||
    !existsSync(join(WIDGET_DIR, 'custom-elements.json')) ||
    statSync(WIDGET_BUNDLE).mtimeMs < newestSourceMtime(join(REPO_ROOT, 'widget'));
  if (!stale) return;
  await run('npx', ['vite', 'build', '--logLevel', 'warn'], { cwd: REPO_ROOT, timeout: 90_000 });
  await run('npx', ['cem', 'analyze', '--quiet'], { cwd: REPO_ROOT, timeout: 60_000 });
  if (!existsSync(WIDGET_BUNDLE)) throw new Error(`vite build did not produce ${WIDGET_BUNDLE}`);
}

/** The sources tsconfig.build.json compiles, each beside the file it compiles to in dist/. */
function serviceSources(dir: string): { source: string; output: string }[] {
  const found: { source: string; output: string }[] = [];
  for (const entry of readdirSync(join(REPO_ROOT, dir), { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) found.push(...serviceSources(path));
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) {
      found.push({ source: join(REPO_ROOT, path), output: join(REPO_ROOT, 'dist', path.replace(/\.ts$/, '.js')) });
    }
  }
  return found;
}

/**
 * Compiles the services into dist/ (`npx tsc -p tsconfig.build.json`, what `npm run build` does first) unless
 * every source of contract/, platform/, server/ and bff/ already has its compiled file in dist/, newer than it
 * and than either tsconfig: the files that run the compiled output (scripts/start.mjs, scripts/demo-sites.mjs)
 * then share one build, or none after `npm ci` (whose `prepare` builds), instead of one each.
 */
export async function ensureServicesBuilt(): Promise<void> {
  const configs = Math.max(...['tsconfig.json', 'tsconfig.build.json'].map((file) => statSync(join(REPO_ROOT, file)).mtimeMs));
  const stale = ['contract', 'platform', 'server', 'bff']
    .flatMap(serviceSources)
    .some(({ source, output }) => !existsSync(output) || statSync(output).mtimeMs < Math.max(statSync(source).mtimeMs, configs));
  if (stale) await run('npx', ['tsc', '-p', 'tsconfig.build.json'], { cwd: REPO_ROOT, timeout: 120_000 });
}

/**
 * A clinic's own website on another origin (another loopback port, so Chromium's
 * local-network rules treat it like the BFF), serving the HTML pages tests put in.
 */
export interface ClinicSite {
  origin: string;
  pages: Map<string, string>;
  /** Extra response headers of a page, by its path (e.g. a Content-Security-Policy). */
  pageHeaders: Map<string, Record<string, string>>;
  close(): Promise<void>;
}

export async function startClinicSite(): Promise<ClinicSite> {
  const pages = new Map<string, string>();
  const pageHeaders = new Map<string, Record<string, string>>();
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    const page = pages.get(path);
    if (page === undefined) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store', ...pageHeaders.get(path) }).end(page);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    pages,
    pageHeaders,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export interface E2eStack {
  /** The reference server now running (replaced by restartServer()). */
  server: TestServer;
  clinic: SeededClinic;
  bff: RunningBff;
  /** A clinic website on its own origin, which the BFF allows (ALLOWED_ORIGINS). */
  site: ClinicSite;
  dbPath: string;
  /** The reference server's port; a restart reuses it. */
  port: number;
  /** Stops the reference server; the BFF keeps running. */
  stopServer(): Promise<void>;
  /** Starts the reference server again on the same port and database file. */
  restartServer(): Promise<void>;
  close(): Promise<void>;
}

/**
 * The real stack: the reference server (system clock, temp SQLite file seeded
 * with the demo clinic, image links on its own base URL) and the BFF in front,
 * serving the built widget, on the system clock unless a test gives it one to move.
 */
export async function startE2eStack(bffOverrides: Partial<BffConfig> = {}, bffClock: Clock = systemClock): Promise<E2eStack> {
  await ensureWidgetBuilt();
  const first = await startTestServer({ clock: systemClock });
  let site: ClinicSite | undefined;
  let clinic: SeededClinic;
  let bff: RunningBff;
  try {
    const careId = await new ClinicStore(first.db).create(ClinicFile.parse(demoClinic(first.baseUrl)), systemClock.now());
    const auth = new AuthService(new KeyStore(first.db), new TokenStore(first.db), systemClock);
    const { app_key, app_secret_key } = await auth.createKeyPair(careId);
    clinic = { careId, appKey: app_key, secret: app_secret_key };
    site = await startClinicSite();
    // The BFF's own origin needs no entry: the demo page's requests are same-origin, which CORS never enters.
    bff = await startBff(first.api, clinic, {
      allowedOrigins: [site.origin],
      cache: { ttlMs: 60_000, maxStaleMs: 3600_000, maxBytes: 1024 * 1024 },
      bookingRateLimit: { limit: 1_000, windowMs: 60_000 },
      apiRateLimit: { limit: 10_000, windowMs: 60_000 },
      widgetDir: WIDGET_DIR,
      demoPage: true,
      // The demo clinic sets no booking rules: the BFF is told the server's defaults, as a deployer would.
      bookingRules: { ...DEFAULT_BOOKING_RULES },
      ...bffOverrides,
    }, bffClock);
  } catch (error) {
    await site?.close();
    await first.close();
    removeDb(first.dbPath);
    throw error;
  }
  const clinicSite = site;
  const port = Number(new URL(first.baseUrl).port);
  let running: TestServer | undefined = first;
  const stack: E2eStack = {
    server: first,
    clinic,
    bff,
    site: clinicSite,
    dbPath: first.dbPath,
    port,
    async stopServer() {
      const current = running;
      running = undefined;
      await current?.close();
    },
    async restartServer() {
      if (running) throw new Error('the reference server is already running');
      running = await startTestServer({ clock: systemClock, dbPath: first.dbPath, port });
      stack.server = running;
    },
    async close() {
      await bff.close();
      await clinicSite.close();
      await running?.close();
      running = undefined;
      removeDb(first.dbPath);
    },
  };
  return stack;
}

/** Runs the real provisioning CLI (server/cli/main.ts through tsx) against the stack's database. */
export async function runClinicCli(dbPath: string, args: string[]): Promise<unknown> {
  const { stdout } = await run(process.execPath, ['--import', 'tsx', 'server/cli/main.ts', ...args], {
    cwd: REPO_ROOT,
    env: { ...process.env, DATABASE_URL: `file:${dbPath}`, LOG_LEVEL: 'silent' },
    timeout: 30_000,
  });
  return JSON.parse(stdout) as unknown;
}

/** A YYYY-MM-DD weekday (Mon-Fri) `minDaysAhead` or more days after today in Europe/London. */
export function weekdayAhead(minDaysAhead: number): string {
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/London' }).format(new Date());
  const [y, m, d] = today.split('-').map(Number) as [number, number, number];
  const date = new Date(Date.UTC(y, m - 1, d + minDaysAhead));
  while (date.getUTCDay() === 0 || date.getUTCDay() === 6) date.setUTCDate(date.getUTCDate() + 1);
  return date.toISOString().slice(0, 10);
}

/** The loader (the stable clinic-booking.js) and the content-hashed module it imports, from the same folder. */
export function builtWidget(): { loader: Buffer; moduleName: string; module: Buffer } {
  const loader = readFileSync(WIDGET_BUNDLE);
  const moduleName = /^export \* from '\.\/(clinic-booking-[\w-]+\.js)';\n$/.exec(loader.toString())?.[1];
  if (!moduleName) throw new Error(`the loader is not one re-export of a hashed module: ${loader.toString().slice(0, 200)}`);
  return { loader, moduleName, module: readFileSync(join(WIDGET_DIR, moduleName)) };
}
