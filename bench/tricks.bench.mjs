// What each hot-path trick gains on its benchmark (docs/performance.md, "Hot-path tricks").
//
//   npm run bench:tricks                                      # builds first, then runs this file
//   BENCH_TRICKS=statement-cache,send-json npm run bench:tricks   # only the tricks named
//   BENCH_TURNS=15 npm run bench:tricks                          # 15 turns of 2 s each instead of 5
//
// For each benchmark phase of the services (the BFF's cached GET /api/treatments, the server's
// authenticated GET /api/v1/treatments, durable bookings on SQLite and on PostgreSQL), one compiled
// service with every trick on and, beside it, one per trick with that trick replaced by the library's
// plain way (bench/support/trick-service.mjs says how each is switched off). All of a phase's
// services are measured in turns: a 2 s warm-up each, then five 2 s turns each (BENCH_TURNS more),
// round-robin, each turn starting one variant later, so a busy spell of the machine weighs on all of
// them alike. Before the load, each variant's answer is compared with the one of the service with
// every trick on (status, body, header names): a variant that answers differently measures something
// else, and is reported so.
//
// Per trick: requests/s with it and without it, the gain (with / without - 1), the median and spread
// of that gain over the turns (each turn's with against the same turn's without), and the verdict:
// keep (a gain of 3 % or more) or remove. The verdict is only as good as the machine is quiet: the
// load average is printed before and after, and a busy machine is warned of.
//
// Exit code: 0 when it ran (whatever the verdicts), 2 when it could not run. Every child is stopped,
// the temp dir removed and the PostgreSQL databases dropped in every case.

import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { bffEnvironment } from './support/bff-environment.mjs';
import { bookingLoadOptions, checkOneBooking, nextBookableMonday } from './support/bookings.mjs';
import { grantToken, seedDemoClinic, serverEnvironment, startApiServer } from './support/demo-clinic.mjs';
import { LOAD, fixed, loadOptions, printResultsTable, runInterleaved, warnIfMachineIsBusy } from './support/load.mjs';
import { createBenchDatabase } from './support/postgres-database.mjs';
import { HOST, ROOT, findFreePort, makeTempDir, runAndExit, spawnNode, waitUntilReady } from './support/processes.mjs';

const TRICK_SERVICE = join(ROOT, 'bench/support/trick-service.mjs');
const KEEP_AT_PERCENT = 3;

/** Each phase and the tricks measured on it (a trick on several phases is measured where it matters most). */
const PHASES = [
  {
    name: 'BFF cached GET /api/treatments',
    service: 'bff',
    tricks: ['http-server', 'buffered-stdout', 'request-logger', 'rate-limit-headers'],
  },
  {
    name: 'server GET /api/v1/treatments (SQLite)',
    service: 'server',
    tricks: ['http-server', 'buffered-stdout', 'request-logger', 'rate-limit-headers', 'unchanged-reads', 'send-json'],
  },
  {
    name: 'durable bookings, SQLite (FULL)',
    service: 'server',
    engine: 'sqlite',
    bookings: true,
    tricks: ['statement-cache', 'precompiled-queries', 'clinic-now'],
  },
  { name: 'durable bookings, PostgreSQL', service: 'server', engine: 'postgres', bookings: true, tricks: ['prepared-statements', 'precompiled-queries'] },
];

const TURNS = Number(process.env.BENCH_TURNS ?? 5);
const only = process.env.BENCH_TRICKS ? new Set(process.env.BENCH_TRICKS.split(',').map((name) => name.trim())) : undefined;
const wanted = (trick) => !only || only.has(trick);

const load = () => loadavg().map((value) => value.toFixed(2)).join(', ');

// ---------------------------------------------------------------------------------------------------
// The services
// ---------------------------------------------------------------------------------------------------

/** One trick-service child (every trick on, or `trick` off), ready to answer. */
async function startVariant(service, trick, env, readyPath, cwd = ROOT) {
  const child = spawnNode(`${service} ${trick}`, [TRICK_SERVICE, service, trick], env, { cwd });
  await waitUntilReady(child, `http://${HOST}:${env.PORT}${readyPath}`);
  return `http://${HOST}:${env.PORT}`;
}

/** What must match between two variants: status, body, and the header names (values may hold ids and dates). */
async function answerOf(url, headers) {
  const response = await fetch(url, { headers });
  const names = [...response.headers.keys()].filter((name) => name !== 'keep-alive' && name !== 'connection').sort();
  return { status: response.status, body: await response.text(), names };
}

function difference(on, off) {
  if (on.status !== off.status) return `status ${off.status} instead of ${on.status}`;
  if (on.body !== off.body) return 'another body';
  const missing = on.names.filter((name) => !off.names.includes(name));
  const extra = off.names.filter((name) => !on.names.includes(name));
  if (missing.length || extra.length) return `headers: missing ${missing.join(', ') || 'none'}; extra ${extra.join(', ') || 'none'}`;
  return undefined;
}

/**
 * Every variant of a GET phase: its base URL, the headers its requests carry (`headersFor`, e.g. a
 * token of its own) and whether it answers as the one with every trick on does.
 */
async function startGetVariants(phase, envFor, path, { readyPath, cwd, headersFor = async () => ({}) }) {
  const variants = [];
  for (const trick of ['none', ...phase.tricks]) {
    const port = await findFreePort();
    const base = await startVariant(phase.service, trick, envFor(port), readyPath, cwd);
    variants.push({ trick, base, headers: await headersFor(base) });
  }
  const on = await answerOf(`${variants[0].base}${path}`, variants[0].headers);
  for (const variant of variants.slice(1)) variant.differs = difference(on, await answerOf(`${variant.base}${path}`, variant.headers));
  return variants;
}

// ---------------------------------------------------------------------------------------------------
// Measuring and reporting
// ---------------------------------------------------------------------------------------------------

/** The variants of one phase in turns; one result per trick. */
async function measure(phase, variants, optionsFor) {
  console.log(`\n${phase.name}:`);
  const phases = await runInterleaved(variants.map((variant) => ({
    title: `${phase.name}, ${variant.trick === 'none' ? 'every trick on' : `${variant.trick} off`}`,
    options: optionsFor(variant),
  })), { slices: TURNS, durationSeconds: 2 * TURNS, rotate: true });
  printResultsTable(phases);
  const [on, ...offs] = phases;
  return offs.map((off, index) => {
    const turns = on.turnsPerSecond.map((value, turn) => (value / off.turnsPerSecond[turn] - 1) * 100).sort((a, b) => a - b);
    return {
      trick: variants[index + 1].trick,
      phase: phase.name,
      on: on.requestsPerSecond,
      off: off.requestsPerSecond,
      gain: (on.requestsPerSecond / off.requestsPerSecond - 1) * 100,
      turns: { min: turns[0], median: turns[Math.floor(turns.length / 2)], max: turns.at(-1) },
      valid: [on, off].every((result) => result.non2xx === 0 && result.errors === 0),
      differs: variants[index + 1].differs,
    };
  });
}

function printVerdicts(results) {
  console.log(`\nper trick (gain = with / without - 1; keep at ${KEEP_AT_PERCENT} % or more; load average now ${load()}):`);
  const rows = results.map((result) => [
    result.trick,
    result.phase,
    fixed(result.on, 0),
    fixed(result.off, 0),
    `${fixed(result.gain, 1)} %`,
    `${fixed(result.turns.median, 1)} % (${fixed(result.turns.min, 1)} .. ${fixed(result.turns.max, 1)})`,
    !result.valid ? 'invalid (non-2xx or errors)' : result.differs ? `answers differ: ${result.differs}` : result.gain >= KEEP_AT_PERCENT ? 'keep' : 'remove',
  ]);
  const header = ['trick', 'benchmark', 'with (req/s)', 'without', 'gain', 'gain per turn: median (min .. max)', 'verdict'];
  const widths = header.map((_, column) => Math.max(...[header, ...rows].map((row) => String(row[column]).length)));
  for (const row of [header, widths.map((width) => '-'.repeat(width)), ...rows]) {
    console.log(row.map((cell, column) => String(cell).padEnd(widths[column])).join('  '));
  }
}

// ---------------------------------------------------------------------------------------------------
// Main
// ---------------------------------------------------------------------------------------------------

/** A seeded server database of its own (SQLite file or fresh PostgreSQL database): its URL and keys. */
async function seededDatabase(engine, tempDir, name) {
  let url = `file:${join(tempDir, `${name}.db`)}`;
  if (engine === 'postgres') {
    const database = await createBenchDatabase();
    if (database.unavailable) return { unavailable: database.unavailable };
    url = database.url;
  }
  const keys = await seedDemoClinic(serverEnvironment(url, 0));
  return { url, keys };
}

async function authHeadersFor(base, keys) {
  return { 'x-app-key': keys.app_key, authorization: `Bearer ${await grantToken(base, keys)}` };
}

async function runBenchmark() {
  console.log(`tricks benchmark: node ${process.version}, ${cpus().length} CPUs, load average ${load()}, ` +
    `${LOAD.connections} connections, LOG_LEVEL=info, SQLITE_SYNCHRONOUS=${process.env.SQLITE_SYNCHRONOUS ?? 'FULL'}`);
  await warnIfMachineIsBusy();
  const tempDir = await makeTempDir('clinic-bench-tricks-');
  const shared = await seededDatabase('sqlite', tempDir, 'shared');
  const results = [];

  for (const phase of PHASES) {
    const tricks = phase.tricks.filter(wanted);
    if (tricks.length === 0) continue;
    const current = { ...phase, tricks };

    if (phase.service === 'bff') {
      // One upstream server for every BFF variant; each BFF caches the content for the whole run.
      const apiPort = await findFreePort();
      await startApiServer(serverEnvironment(shared.url, apiPort));
      const upstreamUrl = `http://${HOST}:${apiPort}/api/v1`;
      const envFor = (port) => bffEnvironment({ upstreamUrl, keys: shared.keys, port, cacheTtlMs: 600_000, cacheMaxBytes: 262_144 });
      const variants = await startGetVariants(current, envFor, '/api/treatments', { readyPath: '/readyz', cwd: tempDir });
      results.push(...await measure(current, variants, (variant) => loadOptions(`${variant.base}/api/treatments`)));
    } else if (!phase.bookings) {
      // Every server variant on the same SQLite file, each with a token of its own.
      const envFor = (port) => serverEnvironment(shared.url, port);
      const headersFor = (base) => authHeadersFor(base, shared.keys);
      const variants = await startGetVariants(current, envFor, '/api/v1/treatments', { readyPath: '/healthz', headersFor });
      results.push(...await measure(current, variants, (variant) => loadOptions(`${variant.base}/api/v1/treatments`, { headers: variant.headers })));
    } else {
      // Bookings: each variant on a database of its own, so one's growing tables and WAL never weigh on another.
      const appointmentDate = nextBookableMonday();
      const variants = [];
      for (const trick of ['none', ...tricks]) {
        const database = await seededDatabase(phase.engine, tempDir, `bookings-${trick}`);
        if (database.unavailable) {
          console.log(`\n${phase.name}: not run (${database.unavailable})`);
          break;
        }
        const port = await findFreePort();
        const base = await startVariant('server', trick, serverEnvironment(database.url, port), '/healthz');
        const headers = await authHeadersFor(base, database.keys);
        await checkOneBooking(base, headers, appointmentDate);
        variants.push({ trick, base, headers });
      }
      if (variants.length === tricks.length + 1) {
        results.push(...await measure(current, variants, (variant) => bookingLoadOptions(variant.base, variant.headers, appointmentDate)));
      }
    }
  }

  printVerdicts(results);
  return 0;
}

await runAndExit(runBenchmark);
