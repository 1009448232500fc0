// Many sites on one BFF (docs/sites.md): memory, a cold start of every site at once, and the cached GET
// spread over every site against one site's, of the compiled BFF (dist/bff).
//
//   npm run bench:sites      # builds first, then runs this file
//
// One run, all on 127.0.0.1, about a minute:
//   1. the compiled reference server with the demo clinic (seeded by the compiled CLI) in a temp dir,
//      only to capture the exact bytes it answers for the four content routes (then left idle);
//   2. a fake upstream (bench/support/fake-clinic-upstream.mjs) that grants a token to any app key after
//      EXCHANGE_DELAY_MS and answers every clinic's content with those captured bytes, counting token
//      exchanges in flight at once. Why not 1,000 clinics on the reference server: each would be one
//      `clinic seed-demo` process (about a second each, so a quarter of an hour of seeding) and the run
//      would measure the reference server's SQLite as much as the BFF. The fake upstream stands where a
//      counting proxy in front of upstream would, and counts the same things;
//   3. SITES sites in the BFF's own SQLite database (written with the compiled site store, each its own
//      app key and secret, sealed under SITE_SECRETS_KEY), and the compiled BFF serving them under
//      /s/{site_id}/ (SITE_SECRETS_KEY set; LOG_LEVEL=warn; a cache large enough for every site);
//   4. cold start: GET /s/{id}/api/content (every content resource) for all sites at once: every site
//      answered 200 within COLD_START_LIMIT_MS, token exchanges in flight never above
//      TOKEN_EXCHANGES_MAX_IN_FLIGHT (8), one exchange per site;
//   5. the BFF's resident memory with every site's content cached (VmRSS, /proc/<pid>/status);
//   6. autocannon, 10 connections, in turns (5 slices of 2 s after a 2 s warm-up each): one site's cached
//      GET /s/{id}/api/treatments, and the same GET spread over every site (each request the next site);
//      the spread must reach 80% of the single site's throughput, its p99 at most 10 ms; and no content
//      call upstream during it (every site stayed cached);
//   7. a table, PASS/FAIL per target; exit code 0 when all pass, 1 on a miss, 2 when it could not run.
// Secrets and tokens are never printed. Every child is stopped and the temp dir removed in every case.

import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { captureContent, startFakeUpstream } from './support/fake-clinic-upstream.mjs';
import { grantToken, seedDemoClinic, serverEnvironment, startApiServer } from './support/demo-clinic.mjs';
import { LOAD, fixed, loadOptions, printChecks, printResultsTable, runInterleaved, shareOf, warnIfMachineIsBusy } from './support/load.mjs';
import { HOST, ROOT, findFreePort, makeTempDir, readMemory, runAndExit, sleep, spawnNode, waitUntilReady } from './support/processes.mjs';

// BENCH_SITES: fewer sites for a quick check of the benchmark itself; the targets are for 1,000.
const SITES = Number(process.env.BENCH_SITES ?? 1000);
/** How long one /granttoken takes at the fake upstream: a real exchange is a round trip and a stored token. */
const EXCHANGE_DELAY_MS = 50;
const COLD_START_LIMIT_MS = 60_000;
/** Far above what every site's content takes, so that nothing is evicted and all stays cached. */
const CACHE_MAX_BYTES = 256 * 1024 * 1024;
/** The whole run fits in one TTL: nothing cached expires while it is measured. */
const CACHE_TTL_MS = 600_000;

const TARGETS = {
  rssMiB: 400,
  exchangesInFlight: 8,
  coldStartMs: COLD_START_LIMIT_MS,
  spreadShareOfSinglePercent: 80,
  spreadP99Ms: 10,
};

const MiB = 1024 * 1024;
const mib = (bytes) => `${fixed(bytes / MiB, 1)} MiB`;
const dist = (path) => import(pathToFileURL(join(ROOT, 'dist', path)).href);

/** The demo clinic's content as the reference server answers it. */
async function captureDemoContent(dir) {
  const port = await findFreePort();
  const env = serverEnvironment(`file:${join(dir, 'clinic.db')}`, port);
  env.LOG_LEVEL = 'warn';
  const keys = await seedDemoClinic(env);
  // Left running, idle, until the end: the benchmark's children are all expected alive until cleanUp().
  await startApiServer(env);
  const baseUrl = `http://${HOST}:${port}`;
  return captureContent(baseUrl, keys.app_key, await grantToken(baseUrl, keys));
}

/** SITES sites in the BFF's database at `databaseUrl`, each its own app key; returns their ids. */
async function createSites(databaseUrl, secretsKey, upstreamUrl) {
  const { openSitesDatabase } = await dist('bff/sites/sites-database.js');
  const { SiteStore } = await dist('bff/sites/site.store.js');
  const { SiteSecrets } = await dist('bff/sites/site-secrets.js');
  const { SiteFile } = await dist('bff/sites/site.js');
  const database = await openSitesDatabase(databaseUrl);
  try {
    const store = new SiteStore(database.db, new SiteSecrets(secretsKey));
    const ids = [];
    for (let index = 0; index < SITES; index += 1) {
      const file = SiteFile.parse({
        name: `Bench clinic ${index}`,
        upstream_url: upstreamUrl,
        app_key: `ck_bench_${String(index).padStart(4, '0')}_${randomBytes(8).toString('hex')}`,
        app_secret_key: randomBytes(24).toString('base64url'),
        allowed_origins: [`https://clinic-${index}.example`],
        time_zone: 'Europe/London',
      });
      ids.push(await store.create(file, new Date()));
    }
    return ids;
  } finally {
    await database.close();
  }
}

async function startBff({ cwd, port, upstreamUrl, databaseUrl, secretsKey }) {
  const env = {
    PATH: process.env.PATH ?? '',
    // The BFF's own clinic (the default site at /api), on the fake upstream too.
    UPSTREAM_URL: upstreamUrl,
    APP_KEY: 'ck_bench_default_site',
    APP_SECRET_KEY: 'bench-default-site-secret',
    BOOKING_REF_SECRET: 'benchmark-booking-reference-secret-0123456789',
    DATABASE_URL: databaseUrl,
    SITE_SECRETS_KEY: secretsKey.toString('base64'),
    PORT: String(port),
    HOST,
    API_RATE_LIMIT: '100000000', // per client IP: every benchmark request comes from one IP
    CACHE_TTL_MS: String(CACHE_TTL_MS),
    CACHE_MAX_BYTES: String(CACHE_MAX_BYTES),
    LOG_LEVEL: 'warn',
    WIDGET_DIR: join(ROOT, 'widget/dist'),
  };
  const child = spawnNode('BFF', [join(ROOT, 'dist/bff/main.js')], env, { cwd });
  await waitUntilReady(child, `http://${HOST}:${port}/readyz`);
  return child;
}

/** GET /s/{id}/api/content for every site at once: { slowestMs, statuses, wallMs }. */
async function coldStart(base, ids) {
  const started = Date.now();
  const results = await Promise.all(
    ids.map(async (id) => {
      const sent = Date.now();
      try {
        const response = await fetch(`${base}/s/${id}/api/content`, { signal: AbortSignal.timeout(COLD_START_LIMIT_MS * 2) });
        await response.arrayBuffer();
        return { status: response.status, ms: Date.now() - sent };
      } catch (error) {
        return { status: error instanceof Error ? error.name : 'error', ms: Date.now() - sent };
      }
    }),
  );
  const statuses = {};
  for (const { status } of results) statuses[status] = (statuses[status] ?? 0) + 1;
  return { slowestMs: Math.max(...results.map((result) => result.ms)), statuses, wallMs: Date.now() - started };
}

async function benchmark() {
  await warnIfMachineIsBusy();
  const dir = await makeTempDir('bench-sites-');
  console.log(`capturing the demo clinic's content from the reference server ...`);
  const bodies = await captureDemoContent(dir);
  const upstream = await startFakeUpstream(bodies, { exchangeDelayMs: EXCHANGE_DELAY_MS });
  const secretsKey = randomBytes(32);
  const databaseUrl = `file:${join(dir, 'bff.db')}`;
  console.log(`creating ${SITES} sites ...`);
  const ids = await createSites(databaseUrl, secretsKey, upstream.api);
  const port = await findFreePort();
  const bff = await startBff({ cwd: dir, port, upstreamUrl: upstream.api, databaseUrl, secretsKey });
  const base = `http://${HOST}:${port}`;
  const before = await readMemory(bff);
  const exchangesBefore = upstream.counts.exchanges; // the default site's, for /readyz

  console.log(`cold start: GET /s/{id}/api/content for all ${SITES} sites at once ...`);
  const cold = await coldStart(base, ids);
  await sleep(500);
  const afterCold = await readMemory(bff);
  const siteExchanges = upstream.counts.exchanges - exchangesBefore;
  const contentCallsAfterCold = upstream.counts.contentCalls;

  let next = 0;
  const spreadPaths = ids.map((id) => `/s/${id}/api/treatments`);
  const [single, spread] = await runInterleaved([
    { title: `one site's cached GET /s/{id}/api/treatments`, options: loadOptions(`${base}${spreadPaths[0]}`) },
    {
      title: `cached GET spread over ${SITES} sites`,
      options: loadOptions(`${base}${spreadPaths[0]}`, {
        setupRequest: (request) => ({ ...request, path: spreadPaths[(next = (next + 1) % spreadPaths.length)] }),
      }),
    },
  ]);
  const afterLoad = await readMemory(bff);
  const highestRss = Math.max(afterCold.rssBytes, afterLoad.rssBytes);

  const checks = [
    {
      label: `RSS <= ${TARGETS.rssMiB} MiB with every site's content cached (highest reading, after the cold start or the load)`,
      pass: highestRss <= TARGETS.rssMiB * MiB,
      detail: mib(highestRss),
    },
    {
      label: `cold start of ${SITES} sites at once: token exchanges in flight <= ${TARGETS.exchangesInFlight} (counted upstream)`,
      pass: upstream.counts.mostExchangesInFlight <= TARGETS.exchangesInFlight,
      detail: `${upstream.counts.mostExchangesInFlight} at most`,
    },
    {
      label: `cold start: every site answered 200 within ${TARGETS.coldStartMs / 1000} s`,
      pass: (cold.statuses[200] ?? 0) === SITES && cold.slowestMs <= TARGETS.coldStartMs,
      detail: `slowest ${fixed(cold.slowestMs / 1000, 1)} s; statuses ${JSON.stringify(cold.statuses)}`,
    },
    {
      label: `cached GET spread over ${SITES} sites >= ${TARGETS.spreadShareOfSinglePercent}% of one site's (in turns)`,
      pass: shareOf(spread, single) >= TARGETS.spreadShareOfSinglePercent,
      detail: `${fixed(shareOf(spread, single), 1)}%`,
    },
    {
      label: `cached GET spread over ${SITES} sites: p99 <= ${TARGETS.spreadP99Ms} ms at ${LOAD.connections} connections`,
      pass: spread.totalRequests > 0 && spread.p99Ms <= TARGETS.spreadP99Ms,
      detail: `${fixed(spread.p99Ms, 0)} ms`,
    },
    // Preconditions: without them the figures above would not mean what their labels say.
    {
      label: `validity: one token exchange per site during the cold start`,
      pass: siteExchanges === SITES,
      detail: `${siteExchanges} exchanges for ${SITES} sites`,
    },
    {
      label: 'validity: no content call upstream during the load (every site stayed cached)',
      pass: upstream.counts.contentCalls === contentCallsAfterCold,
      detail: `${upstream.counts.contentCalls - contentCallsAfterCold} calls`,
    },
    {
      label: 'validity: the load was answered, only with 200, and with no connection errors',
      pass: [single, spread].every(
        (phase) => phase.totalRequests > 0 && phase.errors === 0 && Object.keys(phase.statusCodes).every((code) => code === '200'),
      ),
      detail: [single, spread].map((phase) => JSON.stringify(phase.statusCodes)).join(' '),
    },
    {
      label: 'validity: upstream refused no token (no site used another\'s)',
      pass: upstream.counts.refused === 0,
      detail: `${upstream.counts.refused} refused`,
    },
  ];

  printResultsTable([single, spread], [
    `cold start: ${SITES} sites in ${fixed(cold.wallMs / 1000, 1)} s (slowest answer ${fixed(cold.slowestMs / 1000, 1)} s), ` +
      `${upstream.counts.exchanges} token exchanges in all (${EXCHANGE_DELAY_MS} ms each upstream), at most ${upstream.counts.mostExchangesInFlight} in flight`,
    `BFF memory (VmRSS): at start ${mib(before.rssBytes)}, after the cold start ${mib(afterCold.rssBytes)}, ` +
      `after the load ${mib(afterLoad.rssBytes)}; peak (VmHWM) ${mib(afterLoad.peakRssBytes)}`,
    `upstream content calls: ${upstream.counts.contentCalls} (${SITES} sites x 4 resources, and the default site's)`,
  ]);
  printChecks(checks);
  return checks.every((check) => check.pass) ? 0 : 1;
}

await runAndExit(benchmark);
