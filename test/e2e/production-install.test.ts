import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../support/free-port.js';
import { ensureServicesBuilt, ensureWidgetBuilt, REPO_ROOT } from './support/stack.js';

/**
 * A production install as docs/operations.md describes it: the built project
 * (package.json, package-lock.json, dist/, widget/dist/) in a folder of its
 * own, `npm ci --omit=dev` there, then `npm run clinic`, `npm run start:server`
 * and `npm run start:bff`. No development package is installed, so a service
 * that needed one would fail here.
 *
 * better-sqlite3 gets a prebuilt binary, as prebuild-install fetches it on an
 * operator's machine, but from a mirror on 127.0.0.1 (its
 * npm_config_better_sqlite3_binary_host_mirror setting) serving the binary
 * this checkout's own install has: GitHub, where the binaries live, may be out
 * of reach, and compiling from source takes the install from about 30 s to
 * over 3 minutes on 2 cores.
 */

const run = promisify(execFile);
const dir = mkdtempSync(join(tmpdir(), 'clinic-production-'));
const BOOKING_REF_SECRET = 'production-install-booking-reference-secret-0123456789';
let mirror: Server;
let install: { stdout: string; stderr: string };

/** Serves this checkout's better-sqlite3 binary where prebuild-install looks for it on a mirror. */
async function startSqliteBinaryMirror(): Promise<{ server: Server; url: string }> {
  const { version } = JSON.parse(readFileSync(join(REPO_ROOT, 'node_modules/better-sqlite3/package.json'), 'utf8')) as { version: string };
  const packed = join(dir, 'prebuild');
  mkdirSync(join(packed, 'build/Release'), { recursive: true });
  cpSync(join(REPO_ROOT, 'node_modules/better-sqlite3/build/Release/better_sqlite3.node'), join(packed, 'build/Release/better_sqlite3.node'));
  const tarball = join(dir, 'prebuild.tar.gz');
  await run('tar', ['-czf', tarball, '-C', packed, 'build']);
  const path = `/v${version}/better-sqlite3-v${version}-node-v${process.versions.modules}-${process.platform}-${process.arch}.tar.gz`;
  const server = createServer((req, res) => {
    if (req.url === path) res.writeHead(200, { 'content-type': 'application/gzip' }).end(readFileSync(tarball));
    else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

interface Service {
  output(): string;
  /** Resolves once the output holds `text`; fails if the process ends first. */
  saying(text: string): Promise<void>;
  exited: Promise<number | null>;
  stop(): Promise<void>;
}

/** `npm run <script>` in the installed folder, in a process group of its own so that nothing outlives the test. */
function npmRun(script: string, env: Record<string, string>): Service {
  const child: ChildProcess = spawn('npm', ['run', script], { cwd: dir, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let output = '';
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const collect = (chunk: Buffer) => (output += chunk.toString());
  child.stdout!.on('data', collect);
  child.stderr!.on('data', collect);
  return {
    output: () => output,
    exited,
    saying: (text) =>
      new Promise<void>((resolve, reject) => {
        const check = () => output.includes(text) && resolve();
        child.stdout!.on('data', check);
        void exited.then((code) => reject(new Error(`npm run ${script} ended (${code}) before saying "${text}":\n${output}`)));
        check();
      }),
    async stop() {
      if (child.exitCode !== null) return;
      try {
        process.kill(-child.pid!, 'SIGTERM');
      } catch {
        // the group is gone already
      }
      await exited;
    },
  };
}

beforeAll(async () => {
  await Promise.all([ensureServicesBuilt(), ensureWidgetBuilt()]);
  for (const built of ['package.json', 'package-lock.json', 'dist', 'widget/dist']) cpSync(join(REPO_ROOT, built), join(dir, built), { recursive: true });
  const binaries = await startSqliteBinaryMirror();
  mirror = binaries.server;
  install = await run('npm', ['ci', '--omit=dev'], {
    cwd: dir,
    // prefer-offline: what npm's cache holds is taken without asking the registry again (the lockfile's integrity still checked).
    env: { ...process.env, npm_config_better_sqlite3_binary_host_mirror: binaries.url, npm_config_prefer_offline: 'true' },
    timeout: 280_000,
    maxBuffer: 16 * 1024 * 1024,
  });
}, 300_000);
afterAll(async () => {
  await new Promise((resolve) => mirror?.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});

describe('npm ci --omit=dev on the built project', () => {
  it('installs no development package, and prepare says it leaves the build as it is', () => {
    expect(install.stdout).toContain('prepare: no build, as tsc and vite are not installed');
    for (const devPackage of ['typescript', 'vite', 'http-proxy-middleware', 'pino-pretty']) {
      expect(existsSync(join(dir, 'node_modules', devPackage)), devPackage).toBe(false);
    }
    expect(existsSync(join(dir, 'node_modules', 'better-sqlite3', 'build', 'Release', 'better_sqlite3.node'))).toBe(true);
  });
});

describe('the services of a production install', () => {
  let server: Service;
  let bff: Service;
  let serverUrl: string;
  let bffUrl: string;

  beforeAll(async () => {
    const [serverPort, bffPort] = [await freePort(), await freePort()];
    serverUrl = `http://127.0.0.1:${serverPort}`;
    bffUrl = `http://127.0.0.1:${bffPort}`;
    const database = { DATABASE_URL: `file:${join(dir, 'clinic.db')}` };
    const seeded = await run('npm', ['run', '--silent', 'clinic', '--', 'seed-demo', '--public-url', serverUrl], { cwd: dir, env: { ...process.env, ...database } });
    const keys = JSON.parse(seeded.stdout) as { app_key: string; app_secret_key: string };
    server = npmRun('start:server', { ...database, PORT: String(serverPort) });
    await server.saying('listening on');
    bff = npmRun('start:bff', {
      PORT: String(bffPort),
      UPSTREAM_URL: `${serverUrl}/api/v1`,
      APP_KEY: keys.app_key,
      APP_SECRET_KEY: keys.app_secret_key,
      BOOKING_REF_SECRET,
    });
    await bff.saying('listening on');
  }, 60_000);
  afterAll(async () => {
    await bff?.stop();
    await server?.stop();
  });

  it('starts the server, which answers its health check', async () => {
    const res = await fetch(`${serverUrl}/healthz`);

    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ok' });
  });

  it('starts the BFF, ready once it has a token from the server', async () => {
    const res = await fetch(`${bffUrl}/readyz`);

    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ready' });
  });

  it("serves the clinic's content through the BFF", async () => {
    const res = await fetch(`${bffUrl}/api/treatments`);

    expect(res.status).toBe(200);
    const body = (await res.json()) as { success: boolean; data: { treatment_name: string }[] };
    expect(body.success).toBe(true);
    expect(body.data.map((treatment) => treatment.treatment_name)).toContain('Dental check-up');
  });

  it('serves the built widget', async () => {
    const res = await fetch(`${bffUrl}/widget/clinic-booking.js`);

    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/javascript/);
    // The loader: the widget's hashed module, from the copied widget/dist.
    expect(await res.text()).toMatch(/from '\.\/clinic-booking-[\w-]+\.js'/);
  });

  it('stops the BFF with one line naming the missing package when WIDGET_DEV_URL asks for the dev proxy', async () => {
    const devOnly = npmRun('start:bff', { PORT: String(await freePort()), UPSTREAM_URL: `${serverUrl}/api/v1`, APP_KEY: 'ck_dev', APP_SECRET_KEY: 'cs_dev-secret', BOOKING_REF_SECRET, WIDGET_DEV_URL: 'http://127.0.0.1:5173' });

    expect(await devOnly.exited).not.toBe(0);
    expect(devOnly.output()).toContain('BFF could not start: WIDGET_DEV_URL (the widget dev proxy of npm run dev) needs http-proxy-middleware');
    expect(devOnly.output()).not.toContain('listening on');
  });

  it('logs JSON lines in a terminal, after one line saying pino-pretty is not installed', async () => {
    const script = [
      "import { createLogger, exitAfterLogsFlushed } from './dist/platform/logger.js';",
      "const logger = createLogger('info', undefined, { isTTY: true });",
      "logger.info('hello');",
      'exitAfterLogsFlushed(logger, 0);',
    ].join('\n');

    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], { cwd: dir });

    const lines = stdout.trim().split('\n').map((line) => JSON.parse(line) as { msg: string });
    expect(lines.map((line) => line.msg)).toEqual([
      'Readable logs in a terminal needs pino-pretty, a development package that a production install (npm ci --omit=dev) leaves out: JSON lines instead',
      'hello',
    ]);
  });
});
