// Load phases with autocannon, their summary, the results table and the PASS/FAIL lines, and a
// warning when other work on the machine competes with the benchmark.

import { cpus } from 'node:os';
import autocannon from 'autocannon';
import { assertAllRunning, sleep } from './processes.mjs';

/** 10 connections, pipelining 1, 10 s per phase after a discarded 2 s warm-up. */
export const LOAD = { connections: 10, pipelining: 1, warmupSeconds: 2, durationSeconds: 10 };

/** autocannon options for one phase; `requests` lets setupRequest vary each request (body, path). */
export function loadOptions(url, { method = 'GET', headers = {}, setupRequest } = {}) {
  const options = {
    url,
    connections: LOAD.connections,
    pipelining: LOAD.pipelining,
    method,
    headers,
  };
  if (setupRequest) options.requests = [{ method, headers, setupRequest }];
  return options;
}

/**
 * A warm-up whose result is thrown away (2 s unless told otherwise; 0 skips it), then the measured
 * run: `durationSeconds` long, or, when `amount` is given, exactly that many requests but never longer
 * than `durationSeconds` (the run is stopped there). Every child must still be running before and
 * after: numbers measured against a dead server would only be connection errors.
 */
export async function runPhase(
  title,
  options,
  { warmupSeconds = LOAD.warmupSeconds, durationSeconds = LOAD.durationSeconds, amount } = {},
) {
  const warmup = warmupSeconds > 0 ? `warm-up ${warmupSeconds} s, ` : '';
  const measuring = amount ? `${amount} requests, at most ${durationSeconds} s` : `measuring ${durationSeconds} s`;
  process.stdout.write(`  ${title}: ${warmup}${measuring} ... `);
  assertAllRunning();
  if (warmupSeconds > 0) await autocannon({ ...options, duration: warmupSeconds });
  const result = amount
    ? await runAmount({ ...options, title, amount }, durationSeconds)
    : await autocannon({ ...options, title, duration: durationSeconds });
  assertAllRunning();
  process.stdout.write('done\n');
  return summarise(title, result);
}

/**
 * Phases measured in turns instead of one after the other: after a warm-up of each, every phase's
 * `durationSeconds` is cut into `slices` slices, run round-robin (A B C A B C ...). Other work on the
 * machine (a test run that starts or ends) then weighs on every phase alike, so their shares of one
 * another mean what they say; one after the other, a phase that happened to run during a busy spell
 * came out a quarter lower. Latency percentiles are over all the slices of a phase (autocannon's
 * histograms, merged); throughput is its answers over its measured seconds. `rotate` starts each
 * turn one phase later, so that no phase always follows the same one. `beforeTurn(index)`, when given,
 * is awaited before each measured turn (index: the phase about to run), outside the measured time: e.g.
 * to let background work one phase left behind finish, so it does not weigh on the next.
 */
export async function runInterleaved(
  phases,
  { warmupSeconds = LOAD.warmupSeconds, durationSeconds = LOAD.durationSeconds, slices = 5, rotate = false, beforeTurn } = {},
) {
  const sliceSeconds = durationSeconds / slices;
  process.stdout.write(`  ${phases.map(({ title }) => title).join(', ')}: warm-up ${warmupSeconds} s each, ` +
    `then ${slices} turns of ${sliceSeconds} s each, measuring ${durationSeconds} s per phase ... `);
  assertAllRunning();
  for (const { options } of phases) await autocannon({ ...options, duration: warmupSeconds });
  const runs = phases.map(() => []);
  for (let slice = 0; slice < slices; slice++) {
    // With `rotate`, each turn starts one phase later (A B C, B C A, ...), so none is always first.
    const order = phases.map((_, position) => (rotate ? (position + slice) % phases.length : position));
    for (const index of order) {
      if (beforeTurn) await beforeTurn(index);
      runs[index].push(await autocannon({ ...phases[index].options, duration: sliceSeconds, skipAggregateResult: true }));
      assertAllRunning();
    }
  }
  process.stdout.write('done\n');
  return phases.map(({ title, options }, index) => {
    const merged = autocannon.aggregateResult(runs[index], { ...options, title });
    const answered = runs[index].reduce((sum, run) => sum + run.totalCompletedRequests, 0);
    const seconds = runs[index].reduce((sum, run) => sum + run.duration, 0);
    const phase = summarise(title, { ...merged, requests: { average: answered / seconds, total: answered } });
    // Each turn's own throughput, so a comparison can show how far the turns spread.
    return { ...phase, turnsPerSecond: runs[index].map((run) => run.totalCompletedRequests / run.duration) };
  });
}

/** autocannon ignores `duration` when `amount` is set, so the time bound is a stop() timer. */
async function runAmount(options, maxSeconds) {
  const instance = autocannon(options);
  const timer = setTimeout(() => instance.stop(), maxSeconds * 1000);
  try {
    return await instance;
  } finally {
    clearTimeout(timer);
  }
}

/** The numbers the report uses, from an autocannon result. */
function summarise(title, result) {
  return {
    title,
    requestsPerSecond: result.requests.average,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    totalRequests: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    statusCodes: Object.fromEntries(Object.entries(result.statusCodeStats ?? {}).map(([code, { count }]) => [code, count])),
  };
}

export const fixed = (value, digits) => (Number.isFinite(value) ? value.toFixed(digits) : 'n/a');

/** Pads each cell to its column's width; numbers are right-aligned. */
export function formatTable(header, rows) {
  const widths = header.map((_, column) => Math.max(...[header, ...rows].map((row) => String(row[column]).length)));
  const line = (row) => row.map((cell, column) => (column === 0 ? String(cell).padEnd(widths[column]) : String(cell).padStart(widths[column]))).join('  ');
  return [line(header), widths.map((width) => '-'.repeat(width)).join('  '), ...rows.map(line)].join('\n');
}

/** The phases as a table; `notes` are extra lines printed under it. */
export function printResultsTable(phases, notes = []) {
  // autocannon's latency histogram holds whole milliseconds, so 0 means "under 1 ms".
  const header = ['phase', 'req/s (avg)', 'p50 ms', 'p99 ms', 'requests', 'non-2xx', 'errors'];
  const rows = phases.map((phase) => [
    phase.title,
    fixed(phase.requestsPerSecond, 0),
    fixed(phase.p50Ms, 0),
    fixed(phase.p99Ms, 0),
    phase.totalRequests,
    phase.non2xx,
    phase.errors,
  ]);
  const footer = ['(latency in whole milliseconds, as autocannon records it: 0 means under 1 ms)', ...notes].join('\n');
  console.log(`\n${formatTable(header, rows)}\n${footer}\n`);
}

/** One line per check: PASS or FAIL, its label and the measured detail. */
export function printChecks(checks) {
  for (const { label, pass, detail } of checks) console.log(`  ${pass ? 'PASS' : 'FAIL'}  ${label}  (${detail})`);
}

/** A phase's throughput as a percentage of a reference phase's. */
export function shareOf(phase, reference) {
  return (phase.requestsPerSecond / reference.requestsPerSecond) * 100;
}

/**
 * The reference lines printed above the verdicts: how far Express 5 alone gets towards the bare
 * server, and where the server under test stands against both; and against `expressAlike`, Express 5
 * with no middleware listening as the services do (requests made with the app's prototypes), the
 * like-for-like reference for what the services' own middleware and handlers cost.
 */
export function printReferenceShares({ bare, express, expressAlike, tested, testedName }) {
  console.log(`Express 5 alone (no middleware, same bytes) = ${fixed(shareOf(express, bare), 1)}% of bare node:http`);
  console.log(`Express 5 alone, listening as the services do = ${fixed(shareOf(expressAlike, bare), 1)}% of bare node:http`);
  console.log(`${testedName} = ${fixed(shareOf(tested, bare), 1)}% of bare, ${fixed(shareOf(tested, express), 1)}% of Express 5 alone, ` +
    `${fixed(shareOf(tested, expressAlike), 1)}% of Express 5 alone listening as the services do`);
}

/** After the verdicts, information only (not a target): what Express itself reaches on this machine. */
export function printExpressCeiling(bare, express, expressAlike) {
  console.log(`  info  ceiling: Express 5 with no middleware reaches ${fixed(shareOf(express, bare), 1)}% of bare on this machine (not a target)`);
  console.log(`  info  Express 5 with no middleware, listening as the services do (requests made with its prototypes), reaches ` +
    `${fixed(shareOf(expressAlike, bare), 1)}% of bare; the service under test reaches the share above of it (not a target)`);
}

/** Busy and total CPU time summed over all CPUs so far (os.cpus() times, in ms). */
function cpuTimes() {
  let busy = 0;
  let total = 0;
  for (const { times } of cpus()) {
    const all = times.user + times.nice + times.sys + times.idle + times.irq;
    busy += all - times.idle;
    total += all;
  }
  return { busy, total };
}

/**
 * Other work on the machine (a test run, a build) steals CPU from the servers and the client: measure
 * how busy the CPUs are for one second before the load starts and say so next to the numbers.
 */
export async function warnIfMachineIsBusy() {
  const before = cpuTimes();
  await sleep(1000);
  const after = cpuTimes();
  const busyPercent = (100 * (after.busy - before.busy)) / Math.max(1, after.total - before.total);
  if (busyPercent > 15) {
    console.log(`warning: the CPUs were ${busyPercent.toFixed(0)}% busy before the load started; other processes ` +
      'compete with the benchmark and the numbers will be lower than on a quiet machine');
  }
}
