// Throughput and latency benchmark of the compiled reference server (dist/server).
//
//   npm run bench:server                              # builds first, then runs this file
//   SQLITE_SYNCHRONOUS=NORMAL npm run bench:server    # the same with NORMAL instead of FULL
//
//   BENCH_POSTGRES_URL=postgres://user@host:5432/postgres npm run bench:server   # another PostgreSQL server
//   BENCH_REDIS_URL=redis://host:6379 npm run bench:server                         # another Redis
//
// One run, all on 127.0.0.1 (PostgreSQL and Redis: the servers BENCH_POSTGRES_URL and BENCH_REDIS_URL name, by
// default the local ones), about 115 s:
//   1. a fresh SQLite database in a temp dir, seeded with the demo clinic by the compiled CLI;
//   2. the compiled server as a child process, logging at info as in production (stdout ignored);
//   3. a token from POST /api/v1/granttoken;
//   4. a bare node:http server, as a second child process, that answers every request with the exact
//      bytes and content-type of GET /api/v1/treatments: the ceiling for this machine and this client;
//   5. Express 5 with no middleware, as a third child process (bench/support/express-server.mjs), one
//      route GET /api/v1/treatments answering the same bytes and content-type: what Express alone
//      reaches here (the reference the targets are shares of);
//   5a. the same Express again, listening as both services do (platform/fast-http/http-server.ts: requests made
//      with the app's prototypes, which spares Express most of its own cost): the like-for-like
//      reference for what the server's middleware and handlers cost (information, not a target);
//   6. autocannon, 10 connections, pipelining 1: bare GET, both Express GETs and authenticated GET
//      /api/v1/treatments in turns (a 2 s warm-up each, then five 2 s slices each, 10 s per phase), so a
//      busy spell weighs on all of them alike; then authenticated POST /api/v1/appointments/book, 10 s
//      after a discarded 2 s warm-up;
//   6a. with Redis (BENCH_REDIS_URL, by default the local one): a second compiled server on the same
//      SQLite file with REDIS_URL set, so its per-key limit counts in Redis, takes a fifth turn in the
//      GETs above (information, not a target; its keys are deleted at the end);
//   6b. PostgreSQL: a fresh database clinic_bench_<random> (dropped at the end), seeded by the
//      compiled CLI, a second compiled server on it (DATABASE_URL=postgres://…): its authenticated GET
//      (information: on PostgreSQL every read queries, see server/db/performance/unchanged-reads.ts), then the same
//      booking phase. Both booking phases are durable: SQLite with synchronous=FULL (unless
//      SQLITE_SYNCHRONOUS says otherwise, which the report then says), PostgreSQL with
//      synchronous_commit=on (the server sets it on each connection): no booking is answered before
//      its COMMIT is on disk;
//   7. a table, the shares of the bare and Express throughput, PASS/FAIL per target (the GET's as a
//      share of Express measured in the same run; bare stays in the table as the physical limit), and
//      the Express ceiling as information.
//
// Exit code: 0 when every target passes, 1 when a target fails (PostgreSQL out of reach counts as a
// missed target) or an API phase had non-2xx answers or connection errors, 2 when the benchmark itself
// could not run. Every child is stopped and the temp
// dir removed in every case. Patient names, secrets and tokens are never printed.
//
// The parts bench/bff.bench.mjs shares (child processes and cleanup, the demo clinic, the bare and
// Express reference servers, the load phases and the report) are in bench/support/.

import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { captureResponse, startBareServer, startExpressServer } from './support/bare-server.mjs';
import { grantToken, seedDemoClinic, serverEnvironment, startApiServer } from './support/demo-clinic.mjs';
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
import { BOOKING_TIME, CLINIC_TIME_ZONE, checkOneBooking, nextBookableMonday, runBookingPhase } from './support/bookings.mjs';
import { createBenchDatabase } from './support/postgres-database.mjs';
import { benchRedis } from './support/redis-service.mjs';
import { HOST, findFreePort, makeTempDir, runAndExit } from './support/processes.mjs';

const TREATMENTS_PATH = '/api/v1/treatments';
/** Durable bookings per second: each answered only once its COMMIT is on disk. */
const TARGETS = { getShareOfExpressPercent: 50, bookingsPerSecond: { sqlite: 1500, postgres: 1000 }, p99Ms: 25 };

// ---------------------------------------------------------------------------------------------------
// Report
// ---------------------------------------------------------------------------------------------------

/** The p99 target for one phase; a phase with no successful answer has no latency to pass with. */
function p99Check(name, phase) {
  const measured = phase.totalRequests > phase.non2xx;
  return {
    label: `p99 < ${TARGETS.p99Ms} ms (${name})`,
    pass: measured && phase.p99Ms < TARGETS.p99Ms,
    detail: measured ? `${fixed(phase.p99Ms, 0)} ms` : 'no 2xx answers measured',
  };
}

function bookingsCheck(engine, target, phase) {
  return {
    label: `durable bookings on ${engine} >= ${target}/s`,
    pass: phase.requestsPerSecond >= target,
    detail: `${fixed(phase.requestsPerSecond, 0)}/s`,
  };
}

/** Every target and validity check as { label, pass, detail }. */
function evaluate({ express, get, book, postgres, redisGet }) {
  const getShare = shareOf(get, express);
  const checks = [
    {
      label: `GET /treatments >= ${TARGETS.getShareOfExpressPercent}% of Express 5 (no middleware) throughput`,
      pass: getShare >= TARGETS.getShareOfExpressPercent,
      detail: `${fixed(getShare, 1)}%`,
    },
    bookingsCheck('SQLite', TARGETS.bookingsPerSecond.sqlite, book),
    postgres.book
      ? bookingsCheck('PostgreSQL', TARGETS.bookingsPerSecond.postgres, postgres.book)
      : { label: `durable bookings on PostgreSQL >= ${TARGETS.bookingsPerSecond.postgres}/s`, pass: false, detail: `not measured: ${postgres.unavailable}` },
    p99Check('GET /treatments', get),
    p99Check('POST /appointments/book, SQLite', book),
  ];
  if (postgres.book) checks.push(p99Check('POST /appointments/book, PostgreSQL', postgres.book));
  // Not targets but preconditions: numbers measured on refusals or broken connections mean nothing.
  for (const phase of [get, redisGet, book, postgres.get, postgres.book].filter(Boolean)) {
    checks.push({
      label: `validity: ${phase.title} had only 2xx answers and no connection errors`,
      pass: phase.non2xx === 0 && phase.errors === 0,
      detail: phase.non2xx === 0 && phase.errors === 0
        ? 'ok'
        : `${phase.non2xx} non-2xx, ${phase.errors} errors; status codes ${JSON.stringify(phase.statusCodes)}`,
    });
  }
  return { checks };
}

function printVerdicts({ bare, express, expressAlike, get, redisGet, redis, postgres }, { checks }) {
  printReferenceShares({ bare, express, expressAlike, tested: get, testedName: 'API GET /treatments' });
  // Information, not targets: what shared limits and a database without the read cache cost.
  console.log(redisGet
    ? `API GET /treatments, per-key limit in Redis = ${fixed(shareOf(redisGet, express), 1)}% of Express 5 alone (measured in the same turns)`
    : `API GET /treatments, per-key limit in Redis: not measured (${redis.unavailable})`);
  if (postgres.get) {
    console.log(`API GET /treatments on PostgreSQL = ${fixed(shareOf(postgres.get, express), 1)}% of Express 5 alone ` +
      '(measured after the turns, not beside them)');
  }
  console.log('');
  printChecks(checks);
  printExpressCeiling(bare, express, expressAlike);
}

// ---------------------------------------------------------------------------------------------------
// Main
// ---------------------------------------------------------------------------------------------------

/**
 * The second compiled server, on a fresh PostgreSQL database seeded with the demo clinic, and its
 * booking phase; { unavailable } with the reason when PostgreSQL cannot be reached.
 */
async function runPostgresBookings(appointmentDate) {
  const database = await createBenchDatabase();
  if (database.unavailable) {
    console.log(`  POST /appointments/book, PostgreSQL: not run (${database.unavailable})`);
    return { unavailable: database.unavailable };
  }
  const port = await findFreePort();
  const env = serverEnvironment(database.url, port);
  const keys = await seedDemoClinic(env);
  await startApiServer(env);
  const baseUrl = `http://${HOST}:${port}`;
  const authHeaders = { 'x-app-key': keys.app_key, authorization: `Bearer ${await grantToken(baseUrl, keys)}` };
  await checkOneBooking(baseUrl, authHeaders, appointmentDate);
  const get = await runPhase('GET /treatments, PostgreSQL', loadOptions(`${baseUrl}${TREATMENTS_PATH}`, { headers: authHeaders }));
  return { get, book: await runBookingPhase('POST /appointments/book, PostgreSQL', baseUrl, authHeaders, appointmentDate) };
}

async function runBenchmark() {
  const synchronous = process.env.SQLITE_SYNCHRONOUS || 'FULL (default)';
  const load = loadavg().map((value) => value.toFixed(2)).join(', ');
  console.log(`server benchmark: node ${process.version}, ${cpus().length} CPUs, load average ${load}, SQLITE_SYNCHRONOUS=${synchronous}, ` +
    'PostgreSQL synchronous_commit=on, LOG_LEVEL=info');

  const tempDir = await makeTempDir('clinic-bench-');
  const apiPort = await findFreePort();
  const env = serverEnvironment(`file:${join(tempDir, 'bench.db')}`, apiPort);
  const keys = await seedDemoClinic(env);

  await startApiServer(env);
  const baseUrl = `http://${HOST}:${apiPort}`;
  const token = await grantToken(baseUrl, keys);
  const authHeaders = { 'x-app-key': keys.app_key, authorization: `Bearer ${token}` };

  const captured = await captureResponse(baseUrl, TREATMENTS_PATH, authHeaders);
  const barePort = await findFreePort();
  await startBareServer(barePort, captured, TREATMENTS_PATH);
  const expressPort = await findFreePort();
  await startExpressServer(expressPort, captured, TREATMENTS_PATH);
  const expressAlikePort = await findFreePort();
  await startExpressServer(expressAlikePort, captured, TREATMENTS_PATH, { madeWithAppPrototypes: true });

  // The same database and token through a second server whose per-key limit counts in Redis.
  const redis = await benchRedis();
  let redisBaseUrl;
  if (!redis.unavailable) {
    const redisPort = await findFreePort();
    await startApiServer({ ...env, PORT: String(redisPort), REDIS_URL: redis.url, REDIS_KEY_PREFIX: redis.keyPrefix });
    redisBaseUrl = `http://${HOST}:${redisPort}`;
  }

  const appointmentDate = nextBookableMonday();
  await checkOneBooking(baseUrl, authHeaders, appointmentDate);
  console.log(`treatments body ${captured.body.length} bytes (${captured.contentType}); bookings for ${appointmentDate} ${BOOKING_TIME} ${CLINIC_TIME_ZONE}`);
  console.log(`${LOAD.connections} connections, pipelining ${LOAD.pipelining}`);
  await warnIfMachineIsBusy();
  console.log('');

  // In turns (five slices each), as bench:bff does: a busy spell of the machine weighs on all of them alike.
  const [bare, express, expressAlike, get, redisGet] = await runInterleaved([
    { title: 'bare node:http GET', options: loadOptions(`http://${HOST}:${barePort}${TREATMENTS_PATH}`) },
    { title: 'Express 5, no middleware (same bytes)', options: loadOptions(`http://${HOST}:${expressPort}${TREATMENTS_PATH}`) },
    { title: 'Express 5, no middleware, listening as the services do', options: loadOptions(`http://${HOST}:${expressAlikePort}${TREATMENTS_PATH}`) },
    { title: 'GET /treatments', options: loadOptions(`${baseUrl}${TREATMENTS_PATH}`, { headers: authHeaders }) },
    ...(redisBaseUrl
      ? [{ title: 'GET /treatments, limit in Redis', options: loadOptions(`${redisBaseUrl}${TREATMENTS_PATH}`, { headers: authHeaders }) }]
      : []),
  ]);
  const book = await runBookingPhase(`POST /appointments/book, SQLite (${synchronous === 'FULL (default)' ? 'FULL' : synchronous})`, baseUrl, authHeaders, appointmentDate);
  const postgres = await runPostgresBookings(appointmentDate);

  printResultsTable([bare, express, expressAlike, get, redisGet, book, postgres.get, postgres.book].filter(Boolean));
  const verdict = evaluate({ express, get, book, postgres, redisGet });
  printVerdicts({ bare, express, expressAlike, get, redisGet, redis, postgres }, verdict);
  return verdict.checks.every((check) => check.pass) ? 0 : 1;
}

await runAndExit(runBenchmark);
