// Throughput, upstream traffic and memory benchmark of the compiled BFF (dist/bff).
//
//   npm run bench:bff        # builds first, then runs this file
//
// One run, all on 127.0.0.1, about 130 s:
//   1. a fresh SQLite database in a temp dir, seeded with the demo clinic by the compiled CLI;
//   2. the compiled reference server as a child process, logging at info with its stdout piped here:
//      it writes one JSON line per request with req.method and req.path, so every upstream call the
//      BFF makes is counted (the benchmark itself never calls /api/v1, only the BFF does);
//   3. the compiled BFF as a child process (LOG_LEVEL=info, stdout ignored, CACHE_TTL_MS=120000 so
//      the whole run fits in one TTL, a per-IP limit too large to interfere), ready once GET /readyz
//      answers 200;
//   4. the exact bytes and content-type of GET /api/treatments from the BFF, and three reference
//      servers, each a child process answering with them: a bare node:http server (the ceiling),
//      Express 5 with no middleware and one route (bench/support/express-server.mjs; the reference the
//      targets are shares of), and the same Express listening as both services do (requests made with
//      the app's prototypes, platform/fast-http/http-server.ts; information: the like-for-like reference);
//   5. autocannon, 10 connections, pipelining 1, 10 s per phase after a discarded 2 s warm-up: bare
//      GET, both Express GETs and the BFF's cached GET /api/treatments, measured in turns (5 slices of
//      2 s each, round-robin: runInterleaved), so that other work on the machine weighs on all alike;
//   6. a sweep of GET /api/treatments/1 .. /5000, each once: a treatment by id is answered from the
//      cached list (content.routes.ts), so no id, known or made up, may cost an upstream call;
//   7. a second sweep, GET /api/treatments/5001 .. /20000, each once (at most 40 s): three times as
//      many distinct ids again;
//   8. the BFF's resident memory (VmRSS from /proc/<pid>/status) before the load, after the cached
//      GET and after each sweep: it must not grow with the number of distinct ids; and the upstream
//      calls counted from the server's log;
//   8b. with Redis (BENCH_REDIS_URL, by default the local one), after the upstream calls are counted:
//      a second BFF with REDIS_URL set, so its per-IP limit counts in Redis, and its cached GET in
//      turns with Express again (information, not a target; its keys are deleted at the end);
//   8c. a second BFF with METRICS_PORT set, its cached GET in turns with the first BFF's (no metrics):
//      keeping metrics may cost at most 5% (a target);
//   9. a table, the shares of the bare and Express throughput, PASS/FAIL per target (the cached GET's
//      throughput as a share of Express measured in the same run, and its p99; bare stays in the table
//      as the physical limit), and the Express ceiling as information.
//
// Exit code: 0 when every target passes, 1 when a target or a validity check fails, 2 when the
// benchmark itself could not run. Every child is stopped and the temp dir removed in every case
// (errors and Ctrl-C included). Secrets and tokens are never printed.

import { cpus } from 'node:os';
import { join } from 'node:path';
import { captureResponse, startBareServer, startExpressServer } from './support/bare-server.mjs';
import { benchRedis } from './support/redis-service.mjs';
import { bffEnvironment } from './support/bff-environment.mjs';
import { seedDemoClinic, serverEnvironment, startApiServer } from './support/demo-clinic.mjs';
import {
  LOAD,
  fixed,
  loadOptions,
  printChecks,
  printExpressCeiling,
  printReferenceShares,
  printResultsTable,
  runInterleaved,
  runPhase,
  shareOf,
  warnIfMachineIsBusy,
} from './support/load.mjs';
import {
  HOST,
  ROOT,
  findFreePort,
  makeTempDir,
  readMemory,
  runAndExit,
  sleep,
  spawnNode,
  waitUntilReady,
} from './support/processes.mjs';

const BFF_ENTRY = join(ROOT, 'dist/bff/main.js');
const TREATMENTS_PATH = '/api/treatments';
const UPSTREAM_TREATMENTS = '/api/v1/treatments';
const UPSTREAM_GRANTTOKEN = '/api/v1/granttoken';
const UPSTREAM_BY_ID = /^GET \/api\/v1\/treatments\/\d+$/; // "METHOD path" keys of the request counter

// The whole run, from the first upstream call to the end of the second sweep (about 85 s), fits in one
// TTL, so every resource may be fetched upstream at most once.
const CACHE_TTL_MS = 120_000;
// A small cache (it still holds the demo clinic's content many times over): what bounds memory.
const CACHE_MAX_BYTES = 262_144;
// The first sweep asks for 5000 distinct ids; the second for three times as many further ones, stopped
// at 40 s. Even with both sweeps at their time limits the whole run (about 38 s up to the end of the
// cached phase) stays well inside CACHE_TTL_MS.
const SWEEP = { ids: 5000, maxSeconds: 20 };
const SECOND_SWEEP = { firstId: SWEEP.ids + 1, ids: 3 * SWEEP.ids, maxSeconds: 40 };
const LAST_ID = SECOND_SWEEP.firstId + SECOND_SWEEP.ids - 1;

const TARGETS = {
  cachedShareOfExpressPercent: 60,
  cachedP99Ms: 5,
  upstreamCallsPerResourcePerTtl: 1,
  upstreamCallsById: 0,
  rssGrowthAfterBoundMiB: 32,
  // Metrics (METRICS_PORT) may cost at most 5% of the cached GET's throughput: an operator turns them on without a capacity plan.
  metricsShareOfNoMetricsPercent: 95,
};

const MiB = 1024 * 1024;
const mib = (bytes) => `${fixed(bytes / MiB, 1)} MiB`;

// ---------------------------------------------------------------------------------------------------
// Upstream calls, from the server's request log
// ---------------------------------------------------------------------------------------------------

/**
 * Counts the server's request log lines by "METHOD path". pino-http writes one line per request
 * (server/http/request-logger.ts) with req.method and req.path (no query string); other lines (start-up,
 * shutdown) have no req and are skipped.
 */
function createRequestCounter() {
  const counts = new Map();
  return {
    onLine(line) {
      let entry;
      try {
        entry = JSON.parse(line);
      } catch {
        return;
      }
      const path = entry?.req?.path;
      if (typeof path !== 'string') return;
      const key = `${entry.req.method} ${path}`;
      counts.set(key, (counts.get(key) ?? 0) + 1);
    },
    count: (method, path) => counts.get(`${method} ${path}`) ?? 0,
    /** Calls and distinct paths among the lines whose "METHOD path" matches `pattern`. */
    matching(pattern) {
      let calls = 0;
      let distinct = 0;
      for (const [key, count] of counts) {
        if (!pattern.test(key)) continue;
        calls += count;
        distinct += 1;
      }
      return { calls, distinct };
    },
  };
}

/**
 * The server logs a request when its answer is finished, which can be a moment after the BFF has
 * answered: wait until `read()` has not changed for 300 ms (at most 3 s).
 */
async function settled(read) {
  const deadline = Date.now() + 3000;
  let last = read();
  while (Date.now() < deadline) {
    await sleep(300);
    const now = read();
    if (now === last) return now;
    last = now;
  }
  return last;
}

// ---------------------------------------------------------------------------------------------------
// The BFF under test
// ---------------------------------------------------------------------------------------------------

/**
 * Starts dist/bff/main.js and waits for /readyz (which obtains the first token). It runs in the temp
 * dir, not the repository: the BFF loads `.env` from its working directory, and a local demo's .env
 * (keys, ALLOWED_ORIGINS) must not change what is measured. Only what the benchmark decides is set.
 */
async function startBff({ upstreamUrl, keys, port, cwd, redis, extraEnv = {} }) {
  const env = bffEnvironment({ upstreamUrl, keys, port, cacheTtlMs: CACHE_TTL_MS, cacheMaxBytes: CACHE_MAX_BYTES, redis, extraEnv });
  const child = spawnNode('BFF', [BFF_ENTRY], env, { cwd });
  await waitUntilReady(child, `http://${HOST}:${port}/readyz`);
  return child;
}

// ---------------------------------------------------------------------------------------------------
// Report
// ---------------------------------------------------------------------------------------------------

/** Validity: only the expected status codes and no connection errors. */
function validityCheck(phase, allowedCodes) {
  const unexpected = Object.keys(phase.statusCodes).filter((code) => !allowedCodes.includes(code));
  const pass = unexpected.length === 0 && phase.errors === 0 && phase.totalRequests > 0;
  return {
    label: `validity: ${phase.title} answered only ${allowedCodes.join('/')} with no connection errors`,
    pass,
    detail: pass ? `ok; status codes ${JSON.stringify(phase.statusCodes)}`
      : `${phase.errors} errors; status codes ${JSON.stringify(phase.statusCodes)}`,
  };
}

/**
 * By the end of the cached GET and the first sweep the BFF's heap has grown to what this load needs;
 * three times as many further distinct ids must then not make it grow (beyond noise): memory does not
 * depend on the number of distinct ids asked for. Against the higher of the two earlier readings, since
 * where a garbage collection happens to fall moves RSS by tens of MiB either way.
 */
function memoryCheck(afterCached, afterFirstSweep, afterSecondSweep) {
  const reached = Math.max(afterCached.rssBytes, afterFirstSweep.rssBytes);
  const growth = afterSecondSweep.rssBytes - reached;
  return {
    label: `memory bounded: RSS after ${LAST_ID} distinct ids is within ` +
      `${TARGETS.rssGrowthAfterBoundMiB} MiB of the highest RSS after the cached GET or ${SWEEP.ids} ids`,
    pass: growth <= TARGETS.rssGrowthAfterBoundMiB * MiB,
    detail: `${mib(reached)} -> ${mib(afterSecondSweep.rssBytes)}, ${growth >= 0 ? '+' : ''}${mib(growth)}`,
  };
}

/** Every target and validity check as { label, pass, detail }. */
function evaluate({ express, cached, sweep, secondSweep, upstream, memory, timing, withRedis, metrics }) {
  const cachedShare = shareOf(cached, express);
  const maxCalls = TARGETS.upstreamCallsPerResourcePerTtl;
  const checks = [
    {
      label: `BFF cached GET /api/treatments >= ${TARGETS.cachedShareOfExpressPercent}% of Express 5 (no middleware) throughput`,
      pass: cachedShare >= TARGETS.cachedShareOfExpressPercent,
      detail: `${fixed(cachedShare, 1)}%`,
    },
    {
      label: `BFF cached GET /api/treatments p99 <= ${TARGETS.cachedP99Ms} ms at ${LOAD.connections} connections`,
      pass: cached.p99Ms <= TARGETS.cachedP99Ms,
      detail: `${fixed(cached.p99Ms, 0)} ms`,
    },
    {
      label: `<= ${maxCalls} upstream GET ${UPSTREAM_TREATMENTS} per TTL (whole run, capture included)`,
      pass: upstream.treatments <= maxCalls,
      detail: `${upstream.treatments}`,
    },
    {
      label: `<= ${maxCalls} upstream POST ${UPSTREAM_GRANTTOKEN} per TTL (whole run, /readyz included)`,
      pass: upstream.granttoken <= maxCalls,
      detail: `${upstream.granttoken}`,
    },
    {
      label: `${TARGETS.upstreamCallsById} upstream GET ${UPSTREAM_TREATMENTS}/:id for ${LAST_ID} distinct ids (answered from the cached list)`,
      pass: upstream.byId.calls === TARGETS.upstreamCallsById,
      detail: `${upstream.byId.calls}`,
    },
    memoryCheck(memory.afterCached, memory.afterSweep, memory.afterSecondSweep),
    {
      label: `BFF cached GET with METRICS_PORT set >= ${TARGETS.metricsShareOfNoMetricsPercent}% of the same BFF without (in turns)`,
      pass: shareOf(metrics.withMetrics, metrics.withoutMetrics) >= TARGETS.metricsShareOfNoMetricsPercent,
      detail: `${fixed(shareOf(metrics.withMetrics, metrics.withoutMetrics), 1)}%`,
    },
    {
      label: 'validity: the BFF with metrics counted its cached GETs (scraped once at the end)',
      pass: metrics.counted >= metrics.withMetrics.totalRequests,
      detail: `${metrics.counted} counted, ${metrics.withMetrics.totalRequests} measured`,
    },
    // Preconditions: without them the numbers above would not mean what their labels say.
    {
      label: `validity: whole run, first upstream call to the end of the second sweep, within one TTL (${CACHE_TTL_MS / 1000} s)`,
      pass: timing.runWindowMs < CACHE_TTL_MS,
      detail: `${fixed(timing.runWindowMs / 1000, 1)} s; to the end of the cached phase ${fixed(timing.cachedWindowMs / 1000, 1)} s`,
    },
    validityCheck(cached, ['200']),
    ...(withRedis.cached ? [validityCheck(withRedis.cached, ['200'])] : []),
    // Ids past the demo clinic's treatments are 404: answered and cached like any other answer.
    validityCheck(sweep, ['200', '404']),
    validityCheck(secondSweep, ['200', '404']),
    {
      label: `validity: the second sweep asked for all ${SECOND_SWEEP.ids} further ids (${SECOND_SWEEP.firstId}..${LAST_ID}) ` +
        `within ${SECOND_SWEEP.maxSeconds} s`,
      pass: secondSweep.totalRequests >= SECOND_SWEEP.ids,
      detail: `${secondSweep.totalRequests} requests`,
    },
  ];
  return { checks };
}

function printReport({ captured, bare, express, expressAlike, cached, upstream, memory, withRedis }, { checks }) {
  printReferenceShares({
    bare,
    express,
    expressAlike,
    tested: cached,
    testedName: `BFF cached GET /api/treatments (${captured.body.length}-byte body)`,
  });
  // Information, not a target: what a per-IP limit counted in Redis costs.
  console.log(withRedis.cached
    ? `BFF cached GET, per-IP limit in Redis = ${fixed(shareOf(withRedis.cached, withRedis.express), 1)}% of Express 5 alone (in turns with it)`
    : `BFF cached GET, per-IP limit in Redis: not measured (${withRedis.unavailable})`);
  console.log('upstream calls during the whole BFF run, from the server\'s request log:');
  console.log(`  GET ${UPSTREAM_TREATMENTS}: ${upstream.treatments}`);
  console.log(`  POST ${UPSTREAM_GRANTTOKEN}: ${upstream.granttoken}`);
  console.log(`  GET ${UPSTREAM_TREATMENTS}/:id: ${upstream.byId.calls} for ${upstream.byId.distinct} distinct ids`);
  console.log(`  anything else under /api/v1: ${upstream.other}`);
  console.log(`BFF memory (VmRSS), CACHE_MAX_BYTES ${CACHE_MAX_BYTES} (${CACHE_MAX_BYTES / 1024} KiB):`);
  console.log(`  before the load ${mib(memory.before.rssBytes)}, after the cached GET ${mib(memory.afterCached.rssBytes)}, ` +
    `after the ${SWEEP.ids}-id sweep ${mib(memory.afterSweep.rssBytes)}, ` +
    `after ${LAST_ID} distinct ids ${mib(memory.afterSecondSweep.rssBytes)}; ` +
    `peak (VmHWM) ${mib(memory.afterSecondSweep.peakRssBytes)}\n`);
  printChecks(checks);
  printExpressCeiling(bare, express, expressAlike);
}

// ---------------------------------------------------------------------------------------------------
// Main
// ---------------------------------------------------------------------------------------------------

/**
 * A second BFF whose per-IP limit counts in Redis, and its cached GET in turns with Express:
 * { express, cached }, or { unavailable } with the reason when Redis cannot be reached.
 */
async function measureWithRedis({ upstreamUrl, keys, cwd, expressPort }) {
  const redis = await benchRedis();
  if (redis.unavailable) {
    console.log(`  BFF GET /api/treatments (cached), limit in Redis: not run (${redis.unavailable})`);
    return { unavailable: redis.unavailable };
  }
  const port = await findFreePort();
  await startBff({ upstreamUrl, keys, port, cwd, redis });
  const [express, cached] = await runInterleaved([
    { title: 'Express 5, no middleware (again)', options: loadOptions(`http://${HOST}:${expressPort}${TREATMENTS_PATH}`) },
    { title: 'BFF GET /api/treatments (cached), limit in Redis', options: loadOptions(`http://${HOST}:${port}${TREATMENTS_PATH}`) },
  ]);
  return { express, cached };
}

/**
 * A second BFF with METRICS_PORT set (prom-client counting every request), its cached GET in turns with
 * the first BFF's (no metrics): what keeping metrics costs. Its metrics are scraped once at the end, so
 * the run is known to have counted.
 */
async function measureWithMetrics({ upstreamUrl, keys, cwd, bffBase }) {
  const port = await findFreePort();
  const metricsPort = await findFreePort();
  await startBff({ upstreamUrl, keys, port, cwd, extraEnv: { METRICS_PORT: String(metricsPort) } });
  const [withoutMetrics, withMetrics] = await runInterleaved([
    { title: 'BFF GET /api/treatments (cached), no metrics', options: loadOptions(`${bffBase}${TREATMENTS_PATH}`) },
    { title: 'BFF GET /api/treatments (cached), METRICS_PORT set', options: loadOptions(`http://${HOST}:${port}${TREATMENTS_PATH}`) },
  ]);
  const scrape = await (await fetch(`http://${HOST}:${metricsPort}/metrics`)).text();
  const counted = /http_request_duration_seconds_count\{method="GET",route="\/api\/treatments",status="200"\} (\d+)/.exec(scrape);
  return { withoutMetrics, withMetrics, counted: counted ? Number(counted[1]) : 0 };
}

async function runBenchmark() {
  console.log(`BFF benchmark: node ${process.version}, ${cpus().length} CPUs, LOG_LEVEL=info, ` +
    `CACHE_TTL_MS=${CACHE_TTL_MS}, CACHE_MAX_BYTES=${CACHE_MAX_BYTES}`);

  const tempDir = await makeTempDir('clinic-bench-bff-');
  const apiPort = await findFreePort();
  const env = serverEnvironment(`file:${join(tempDir, 'bench.db')}`, apiPort);
  const keys = await seedDemoClinic(env);

  const requests = createRequestCounter();
  await startApiServer(env, { onStdoutLine: requests.onLine });
  const upstreamUrl = `http://${HOST}:${apiPort}/api/v1`;

  const bffPort = await findFreePort();
  const bffStartedAt = Date.now(); // no upstream call can come before this
  const bff = await startBff({ upstreamUrl, keys, port: bffPort, cwd: tempDir });
  const bffBase = `http://${HOST}:${bffPort}`;

  const captured = await captureResponse(bffBase, TREATMENTS_PATH);
  const barePort = await findFreePort();
  await startBareServer(barePort, captured, TREATMENTS_PATH);
  const expressPort = await findFreePort();
  await startExpressServer(expressPort, captured, TREATMENTS_PATH);
  const expressAlikePort = await findFreePort();
  await startExpressServer(expressAlikePort, captured, TREATMENTS_PATH, { madeWithAppPrototypes: true });

  console.log(`treatments body ${captured.body.length} bytes (${captured.contentType}), from the BFF`);
  console.log(`${LOAD.connections} connections, pipelining ${LOAD.pipelining}`);
  await warnIfMachineIsBusy();
  console.log('');

  const before = await readMemory(bff);
  const [bare, express, expressAlike, cached] = await runInterleaved([
    { title: 'bare node:http GET', options: loadOptions(`http://${HOST}:${barePort}${TREATMENTS_PATH}`) },
    { title: 'Express 5, no middleware (same bytes)', options: loadOptions(`http://${HOST}:${expressPort}${TREATMENTS_PATH}`) },
    { title: 'Express 5, no middleware, listening as the services do', options: loadOptions(`http://${HOST}:${expressAlikePort}${TREATMENTS_PATH}`) },
    { title: 'BFF GET /api/treatments (cached)', options: loadOptions(`${bffBase}${TREATMENTS_PATH}`) },
  ]);
  const cachedWindowMs = Date.now() - bffStartedAt;
  const afterCached = await readMemory(bff);

  // Ids 1..5000 in order, each once (autocannon calls setupRequest once per request sent).
  let sequence = 0;
  const sweep = await runPhase(
    `BFF GET /api/treatments/:id sweep 1..${SWEEP.ids}`,
    loadOptions(`${bffBase}${TREATMENTS_PATH}/1`, {
      setupRequest: (request) => ({ ...request, path: `${TREATMENTS_PATH}/${(sequence++ % SWEEP.ids) + 1}` }),
    }),
    { warmupSeconds: 0, durationSeconds: SWEEP.maxSeconds, amount: SWEEP.ids },
  );
  const afterSweep = await readMemory(bff);

  // Ids 5001..20000 in order, each once: the BFF's memory must stay where the first sweep left it.
  let secondSequence = 0;
  const secondSweep = await runPhase(
    `BFF GET /api/treatments/:id sweep ${SECOND_SWEEP.firstId}..${LAST_ID}`,
    loadOptions(`${bffBase}${TREATMENTS_PATH}/${SECOND_SWEEP.firstId}`, {
      setupRequest: (request) => ({
        ...request,
        path: `${TREATMENTS_PATH}/${SECOND_SWEEP.firstId + (secondSequence++ % SECOND_SWEEP.ids)}`,
      }),
    }),
    { warmupSeconds: 0, durationSeconds: SECOND_SWEEP.maxSeconds, amount: SECOND_SWEEP.ids },
  );
  const afterSecondSweep = await readMemory(bff);
  await settled(() => requests.matching(UPSTREAM_BY_ID).calls);
  const runWindowMs = Date.now() - bffStartedAt;

  const upstreamTotal = requests.matching(/^\w+ \/api\/v1\//).calls;
  const upstream = {
    treatments: requests.count('GET', UPSTREAM_TREATMENTS),
    granttoken: requests.count('POST', UPSTREAM_GRANTTOKEN),
    byId: requests.matching(UPSTREAM_BY_ID),
  };
  upstream.other = upstreamTotal - upstream.treatments - upstream.granttoken - upstream.byId.calls;

  // After the count above: this second BFF's own token and first fetch are not the first one's calls.
  const withRedis = await measureWithRedis({ upstreamUrl, keys, cwd: tempDir, expressPort });
  const metrics = await measureWithMetrics({ upstreamUrl, keys, cwd: tempDir, bffBase });

  printResultsTable([bare, express, expressAlike, cached, sweep, secondSweep, withRedis.express, withRedis.cached, metrics.withoutMetrics, metrics.withMetrics].filter(Boolean), [
    `(the sweeps asked for ids 1..${SWEEP.ids}, then ${SECOND_SWEEP.firstId}..${LAST_ID}; ids the demo clinic does not ` +
      'have are 404, answered from the cached list)',
  ]);
  const measured = {
    captured,
    bare,
    express,
    expressAlike,
    cached,
    sweep,
    secondSweep,
    upstream,
    memory: { before, afterCached, afterSweep, afterSecondSweep },
    withRedis,
    metrics,
    timing: { cachedWindowMs, runWindowMs },
  };
  const verdict = evaluate(measured);
  printReport(measured, verdict);
  return verdict.checks.every((check) => check.pass) ? 0 : 1;
}

await runAndExit(runBenchmark);
