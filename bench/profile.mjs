// Where a compiled service spends its CPU under load: a V8 CPU profile of dist/ under autocannon.
//
//   npm run build && node bench/profile.mjs server    # authenticated GET /api/v1/treatments
//   npm run build && node bench/profile.mjs bff       # cached GET /api/treatments
//
// The service runs as in the benchmarks (a fresh demo clinic in a temp dir, LOG_LEVEL=info, stdout
// ignored) under `node --cpu-prof`; 10 connections for 2 s of warm-up, then 10 s profiled (PROFILE_SECONDS);
// SIGTERM, and the profile is written as the process exits. Prints the throughput and the shares of CPU
// by package and by function; the .cpuprofile is kept in test-results/profiles/ for Chrome DevTools'
// Performance panel. Not a benchmark: the profiler itself slows the service down.

import { mkdir, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { grantToken, seedDemoClinic, serverEnvironment, startApiServer } from './support/demo-clinic.mjs';
import { printProfileSummary, summariseProfile } from './support/cpu-profile.mjs';
import { LOAD } from './support/load.mjs';
import { HOST, ROOT, cleanUp, findFreePort, makeTempDir, runAndExit, spawnNode, waitUntilReady } from './support/processes.mjs';

const SERVICES = ['server', 'bff'];
const SECONDS = Number(process.env.PROFILE_SECONDS ?? 10);

/** The service to profile under --cpu-prof, and the request to load it with. */
async function startProfiled(service, profileDir, tempDir) {
  const apiPort = await findFreePort();
  const env = serverEnvironment(`file:${join(tempDir, 'bench.db')}`, apiPort);
  const keys = await seedDemoClinic(env);
  const profiling = ['--cpu-prof', '--cpu-prof-dir', profileDir];
  if (service === 'server') {
    const server = spawnNode('API server', [...profiling, join(ROOT, 'dist/server/main.js')], env);
    const baseUrl = `http://${HOST}:${apiPort}`;
    await waitUntilReady(server, `${baseUrl}/healthz`);
    const token = await grantToken(baseUrl, keys);
    return { child: server, url: `${baseUrl}/api/v1/treatments`, headers: { 'x-app-key': keys.app_key, authorization: `Bearer ${token}` } };
  }
  await startApiServer(env);
  const bffPort = await findFreePort();
  const bff = spawnNode('BFF', [...profiling, join(ROOT, 'dist/bff/main.js')], {
    PATH: process.env.PATH ?? '',
    UPSTREAM_URL: `http://${HOST}:${apiPort}/api/v1`,
    APP_KEY: keys.app_key,
    APP_SECRET_KEY: keys.app_secret_key,
    BOOKING_REF_SECRET: 'profile-booking-reference-secret-0123456789',
    PORT: String(bffPort),
    HOST,
    API_RATE_LIMIT: '100000000',
    CACHE_TTL_MS: '120000',
    LOG_LEVEL: 'info',
    WIDGET_DIR: join(ROOT, 'widget/dist'),
  }, { cwd: tempDir });
  await waitUntilReady(bff, `http://${HOST}:${bffPort}/readyz`);
  return { child: bff, url: `http://${HOST}:${bffPort}/api/treatments`, headers: {} };
}

async function profile() {
  const service = process.argv[2];
  if (!SERVICES.includes(service)) throw new Error(`usage: node bench/profile.mjs ${SERVICES.join('|')}`);
  const profileDir = join(ROOT, 'test-results/profiles', `${service}-${new Date().toISOString().replace(/[:.]/g, '-')}`);
  await mkdir(profileDir, { recursive: true });
  const tempDir = await makeTempDir('clinic-profile-');
  const { url, headers } = await startProfiled(service, profileDir, tempDir);

  const load = { url, headers, connections: LOAD.connections, pipelining: LOAD.pipelining };
  await autocannon({ ...load, duration: LOAD.warmupSeconds });
  const result = await autocannon({ ...load, duration: SECONDS });
  console.log(`${service}: GET ${new URL(url).pathname}, ${result.requests.average.toFixed(0)} req/s under the profiler, ` +
    `p99 ${result.latency.p99} ms, ${result.non2xx} non-2xx`);
  await cleanUp(); // SIGTERM: the profile is written as the service exits

  const [file] = (await readdir(profileDir)).filter((name) => name.endsWith('.cpuprofile'));
  if (!file) throw new Error(`no profile written in ${profileDir}`);
  printProfileSummary(await summariseProfile(join(profileDir, file), ROOT), 25);
  console.log(`\nprofile: ${join(profileDir, file)}`);
  return 0;
}

await runAndExit(profile);
