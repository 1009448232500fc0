// The outbox of the compiled BFF (dist/bff): how soon the clinic hears of a booking, whether a receiver that
// was down gets every message once it is back, and what telling the clinic costs the booking path.
//
//   npm run bench:outbox                              # builds first, then runs this file (about 20 minutes)
//   npm run bench:outbox -- --down-minutes 1          # a shorter outage, for a trial run (the target is 10)
//   npm run bench:outbox -- --only latency            # one part: latency, booking, outage or reminders
//
// One run, all on 127.0.0.1:
//   1. the compiled reference server with the demo clinic (a fresh SQLite file in a temp dir, seeded by the
//      compiled CLI), as bench:server and bench:bff start it, its booking horizon raised to 730 days (and the
//      BFFs' BOOKING_HORIZON_DAYS with it) so that every booking of a run finds a distinct free slot;
//   2. the clinic's receivers, a child process of their own (bench/support/outbox-receiver-process.mjs): a
//      real SMTP server (smtp-server, no TLS on loopback) and a node:http webhook receiver that checks every
//      signature with standardwebhooks; each reports every message it takes, by the outbox message id (the
//      e-mail's Message-ID, the webhook-id) and the time it took it;
//   3. the compiled BFF in front of the server with the default site's e-mail (SMTP_URL, MAIL_FROM,
//      CLINIC_NOTIFY_EMAIL) and webhook (WEBHOOK_URL, WEBHOOK_SECRET, OUTBOUND_ALLOWLIST for the receiver's
//      port) going to them, its own SQLite database (DATABASE_URL) in the temp dir, the outbox settings at
//      their defaults, BOOKING_RATE_LIMIT too large to interfere. Messages are queued the honest way: by
//      real bookings through the BFF (POST /api/appointments/book), each of a distinct dentist, day and
//      start inside the demo clinic's hours (bench/support/bff-bookings.mjs), each queuing one e-mail and
//      one webhook in the transaction that records it. Delivery latency is the receiver's time of taking a
//      message minus its created_at in the BFF's outbox table (one clock: this machine's);
//   4. latency: 500 bookings as fast as the BFF takes them (10 at a time), i.e. 1,000 messages queued in a
//      burst; then the same 1,000 paced at 10 bookings a second. Each message must arrive once, and p95
//      of enqueue-to-delivery be at most 2 s (a target for each);
//   5. booking: bookings through a second BFF without notifications, the first, and a third that queues
//      but does not deliver (OUTBOX_WORKER=false; information: the request path's own cost), all on the
//      same server, measured in turns (autocannon, 10 connections, 20 turns of 1 s each after a 2 s
//      warm-up, each round starting one phase later). Before each turn the first BFF's outbox is let drain,
//      so the messages one turn queued are delivered inside that turn or outside every measured turn,
//      never during another phase's. The median turn with notifications must reach 95% of the median turn
//      without; every answer must be 200;
//   6. outage: both receivers stop listening for --down-minutes (10), while 20 bookings a minute queue
//      messages; then they listen again, and within 7 minutes (the retry wait is capped at
//      OUTBOX_RETRY_MAX_DELAY_MS, 5 minutes by default) every message must have arrived exactly once and
//      none be dead, by the outbox table and by `bff outbox list --state dead`. Progress lines every 30 s;
//   7. reminders: patients' reminders (decision 19) delivered by two compiled BFFs on one PostgreSQL database
//      (BENCH_POSTGRES_URL, by default the local one; a fresh database, dropped at the end), with PUBLIC_ORIGIN,
//      REMINDER_HOURS_BEFORE=24 and SMTP_URL to a receivers process of their own (the same child as above),
//      METRICS_PORT for their counters, the outbox settings at their defaults. 10,000 appointments are put
//      straight into the server's SQLite file, Scheduled, all starting at the same minute a day and some
//      minutes ahead; for each, the BFFs' database gets what a booking with the patient's consent writes
//      (the compiled ChangeStore.recordBooking with patientMessages' reminder: booking record, patient_mail
//      row, outbox row), so all 10,000 reminders fall due in the same minute, while both instances run.
//      Each reminder asks the server for its booking's status before it goes: 10,000 calls on one app key,
//      which the server's API_RATE_LIMIT (600 a minute by default) would spread over 17 minutes; this
//      benchmark's server runs with API_RATE_LIMIT=100000000 (serverEnvironment), as for every other part.
//      Targets: every reminder taken by the SMTP server exactly once (by Message-ID) within 5 minutes of the
//      due time, none dead; each instance's resident memory under 300 MiB (VmRSS sampled every 250 ms
//      from before the due time to the end, and VmHWM, the kernel's peak, at the end);
//   8. the tables, PASS/FAIL per target, and the load average before and after each part (other work on a
//      2-CPU machine moves every number here).
//
// Exit code: 0 when every target passes, 1 when a target or a validity check fails, 2 when the benchmark
// itself could not run. Every child is stopped and the temp dir removed in every case (errors and Ctrl-C
// included). Patient names, phones, references and secrets are never printed.

import { execFile } from 'node:child_process';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs, promisify } from 'node:util';
import { bffEnvironment } from './support/bff-environment.mjs';
import { bffBookingLoadOptions, bookMany, bookThroughBff, createSlotSequence, readClinic } from './support/bff-bookings.mjs';
import { seedDemoClinic, serverEnvironment, startApiServer } from './support/demo-clinic.mjs';
import { fixed, formatTable, printChecks, printResultsTable, runInterleaved, warnIfMachineIsBusy } from './support/load.mjs';
import { cpuAccounting } from './support/cpu-time.mjs';
import { listDeadWithCli, openOutboxTable } from './support/outbox-table.mjs';
import { startOutboxReceivers } from './support/outbox-receivers.mjs';
import { createBenchDatabase } from './support/postgres-database.mjs';
import { HOST, ROOT, findFreePort, makeTempDir, readMemory, runAndExit, sleep, spawnNode, waitUntilReady } from './support/processes.mjs';
import { openPostgresOutbox, readServerClinic, samplesOf, seedScheduledAppointments, wallClockIn, writeReminders } from './support/reminders.mjs';

const BFF_ENTRY = join(ROOT, 'dist/bff/main.js');
const CLINIC_CLI_ENTRY = join(ROOT, 'dist/server/cli/main.js');
const PARTS = ['latency', 'booking', 'outage', 'reminders'];

const TARGETS = {
  p95DeliveryMs: 2000,
  notifyingShareOfSilentPercent: 95,
  outageRecoveryMs: 7 * 60_000,
  remindersAllSentMs: 5 * 60_000,
  instanceRssBytes: 300 * 1024 * 1024,
};
/** 500 bookings, each one e-mail and one webhook: 1,000 messages. */
const LATENCY = { bookings: 500, concurrency: 10, pacedPerSecond: 10, boundMs: 180_000 };
/** 20 turns of 1 s per phase: on a shared 2-CPU machine other work comes and goes by the second, so many short turns. */
const BOOKING_TURNS = { durationSeconds: 20, slices: 20 };
const OUTAGE = { defaultDownMinutes: 10, bookingsPerMinute: 20, progressEveryMs: 30_000 };
/**
 * 10,000 reminders due in one minute, two instances. Their appointments start REMINDERS.hoursBefore hours after
 * the due time, which is the first whole minute at least `writeAheadMs` after the writing starts (so that every
 * reminder is written before any falls due). Memory is sampled every `sampleEveryMs`; the run gives up
 * `boundMs` after the due time.
 */
const REMINDERS = {
  count: 10_000,
  instances: 2,
  hoursBefore: 24,
  minutes: 15,
  writeConcurrency: 16,
  writeAheadMs: 150_000,
  sampleEveryMs: 250,
  progressEveryMs: 15_000,
  boundMs: 6 * 60_000,
  referenceSecret: 'benchmark-booking-reference-secret-0123456789',
};
/** How long the outbox may take to empty before a turn or a part: past it the run stops. */
const DRAIN_BOUND_MS = 180_000;
/**
 * The clinic's booking horizon, on the server (`clinic set-rules --horizon-days`) and the BFF
 * (BOOKING_HORIZON_DAYS) alike: the longest allowed rather than the demo clinic's 365, so that every booking
 * of a run on a fast machine still finds a distinct free slot. A rule's value; no booking costs more for it.
 */
const HORIZON_DAYS = 730;
/** Every slot booked lies in the next this many days: inside the horizon. */
const BOOKING_DAYS = HORIZON_DAYS - 5;
/** Content stays cached for the whole run: bookings read the clinic's hours and dentists from it. */
const CACHE_TTL_MS = 3_600_000;

const load = () => loadavg().map((value) => value.toFixed(2)).join(', ');
const seconds = (ms) => `${fixed(ms / 1000, 1)} s`;
const clock = (ms) => `${Math.floor(ms / 60_000)}:${String(Math.floor((ms % 60_000) / 1000)).padStart(2, '0')}`;

function parseOptions() {
  const { values } = parseArgs({
    options: { only: { type: 'string' }, 'down-minutes': { type: 'string' } },
    strict: true,
  });
  if (values.only !== undefined && !PARTS.includes(values.only)) throw new Error(`--only must be one of ${PARTS.join(', ')}`);
  const downMinutes = values['down-minutes'] === undefined ? OUTAGE.defaultDownMinutes : Number(values['down-minutes']);
  if (!(downMinutes > 0 && downMinutes <= 60)) throw new Error('--down-minutes must be a number of minutes above 0, at most 60');
  return { parts: values.only ? [values.only] : PARTS, downMinutes };
}

/** The compiled `clinic` CLI on the server's database. */
async function runClinicCli(env, args) {
  try {
    await promisify(execFile)(process.execPath, [CLINIC_CLI_ENTRY, ...args], { cwd: ROOT, env });
  } catch (error) {
    throw new Error(`clinic ${args.slice(0, 2).join(' ')} failed: ${error.stderr?.trim() || error.message}`);
  }
}

// ---------------------------------------------------------------------------------------------------
// The BFFs
// ---------------------------------------------------------------------------------------------------

/**
 * A compiled BFF on its own SQLite database in the temp dir unless given `databaseUrl` (it runs there, so no
 * .env of the repository is read), with `extraEnv` on top of what every benchmark BFF gets; answers its base
 * URL, database and process.
 */
async function startBff({ name, upstreamUrl, keys, tempDir, extraEnv, databaseUrl = `file:${join(tempDir, `${name}.db`)}` }) {
  const port = await findFreePort();
  const env = bffEnvironment({
    upstreamUrl,
    keys,
    port,
    cacheTtlMs: CACHE_TTL_MS,
    extraEnv: { DATABASE_URL: databaseUrl, BOOKING_RATE_LIMIT: '100000000', BOOKING_HORIZON_DAYS: String(HORIZON_DAYS), ...extraEnv },
  });
  const child = spawnNode(`BFF (${name})`, [BFF_ENTRY], env, { cwd: tempDir });
  await waitUntilReady(child, `http://${HOST}:${port}/readyz`);
  return { base: `http://${HOST}:${port}`, databaseUrl, databasePath: join(tempDir, `${name}.db`), pid: child.pid, child };
}

// ---------------------------------------------------------------------------------------------------
// Delivery: what the receivers took of the messages the outbox table holds
// ---------------------------------------------------------------------------------------------------

/** Nearest-rank percentile of sorted numbers. */
function percentile(sorted, p) {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

/**
 * Each outbox row against the receivers: taken once (on its own channel), more than once, or not at all;
 * enqueue-to-delivery (first taken minus created_at) overall and per channel.
 */
function deliveryOf(rows, received) {
  const result = { messages: rows.length, once: 0, repeats: 0, missing: 0, wrongChannel: 0, dead: 0, pending: 0, maxAttempts: 0 };
  const latencies = { all: [], email: [], webhook: [] };
  let lastTaken = -Infinity;
  let firstCreated = Infinity;
  for (const row of rows) {
    if (row.state === 'dead') result.dead++;
    if (row.state === 'pending') result.pending++;
    result.maxAttempts = Math.max(result.maxAttempts, row.attempts);
    firstCreated = Math.min(firstCreated, row.created_at);
    const taken = received.get(row.id);
    if (!taken) {
      result.missing++;
      continue;
    }
    if (taken.channel !== row.channel) result.wrongChannel++;
    if (taken.times.length === 1) result.once++;
    else result.repeats++;
    const latency = taken.times[0] - row.created_at;
    latencies.all.push(latency);
    latencies[row.channel].push(latency);
    lastTaken = Math.max(lastTaken, taken.times[0]);
  }
  for (const list of Object.values(latencies)) list.sort((a, b) => a - b);
  result.latencies = latencies;
  result.p50Ms = percentile(latencies.all, 50);
  result.p95Ms = percentile(latencies.all, 95);
  result.maxMs = latencies.all.at(-1) ?? NaN;
  result.p95ByChannel = { email: percentile(latencies.email, 95), webhook: percentile(latencies.webhook, 95) };
  result.firstCreated = firstCreated;
  result.lastTaken = lastTaken;
  // Messages over the time from the first queued to the last taken: the rate the worker kept up.
  result.perSecond = rows.length / Math.max(0.001, (lastTaken - firstCreated) / 1000);
  result.allOnce = result.once === result.messages && result.repeats === 0 && result.missing === 0 && result.wrongChannel === 0;
  return result;
}

/**
 * Waits until no message queued since `since` is pending and the receivers have reported every delivered
 * one (their report comes over a pipe, a moment after the receiver's answer); at most `boundMs`.
 * `progress(counts, elapsedMs)` is called every `progressEveryMs`. Answers { drained, elapsedMs, counts }.
 */
async function waitForDelivery({ table, since, received, boundMs, progressEveryMs, progress }) {
  const start = Date.now();
  let nextProgress = start + (progressEveryMs ?? Infinity);
  for (;;) {
    const counts = table.countsSince(since);
    const elapsedMs = Date.now() - start;
    if (counts.pending === 0) {
      const rows = table.rowsSince(since);
      if (rows.every((row) => row.state !== 'delivered' || received.has(row.id)) || elapsedMs > boundMs) return { drained: true, elapsedMs, counts };
    } else if (elapsedMs > boundMs) {
      return { drained: false, elapsedMs, counts };
    }
    if (progress && Date.now() >= nextProgress) {
      progress(counts, elapsedMs);
      nextProgress += progressEveryMs;
    }
    await sleep(200);
  }
}

/** Waits for the outbox to empty before something is measured; throws past DRAIN_BOUND_MS. */
async function drain(table, received) {
  const { drained, elapsedMs, counts } = await waitForDelivery({ table, since: 0, received, boundMs: DRAIN_BOUND_MS });
  if (!drained) throw new Error(`the outbox still had ${counts.pending} pending messages after ${seconds(DRAIN_BOUND_MS)}`);
  return elapsedMs;
}

// ---------------------------------------------------------------------------------------------------
// The parts
// ---------------------------------------------------------------------------------------------------

/** 500 bookings as fast as the BFF takes them, 10 at a time: 1,000 messages queued in a burst. */
async function measureBurst({ notifying, table, received, slots }) {
  await drain(table, received);
  const since = Date.now();
  process.stdout.write(`  burst: ${LATENCY.bookings} bookings, ${LATENCY.concurrency} at a time ... `);
  const statusCodes = await bookMany(notifying.base, slots, LATENCY.bookings, { concurrency: LATENCY.concurrency });
  const bookingMs = Date.now() - since;
  process.stdout.write(`booked in ${seconds(bookingMs)} ${JSON.stringify(statusCodes)}; delivering ... `);
  const wait = await waitForDelivery({ table, since, received, boundMs: LATENCY.boundMs });
  process.stdout.write(wait.drained ? `done ${seconds(wait.elapsedMs)} after the last booking\n` : `still ${wait.counts.pending} pending after ${seconds(LATENCY.boundMs)}\n`);
  return { title: 'burst', how: `${LATENCY.bookings} bookings, ${LATENCY.concurrency} at a time`, statusCodes, bookingMs, ...deliveryOf(table.rowsSince(since), received) };
}

/** The same number of bookings at LATENCY.pacedPerSecond: the worker is never behind by much. */
async function measurePaced({ notifying, table, received, slots }) {
  await drain(table, received);
  const since = Date.now();
  const intervalMs = 1000 / LATENCY.pacedPerSecond;
  process.stdout.write(`  paced: ${LATENCY.bookings} bookings at ${LATENCY.pacedPerSecond}/s (${seconds(LATENCY.bookings * intervalMs)}) ... `);
  const statusCodes = {};
  const bookings = [];
  for (let i = 0; i < LATENCY.bookings; i++) {
    const due = since + i * intervalMs;
    if (due > Date.now()) await sleep(due - Date.now());
    bookings.push(bookThroughBff(notifying.base, slots, i + 1).then((status) => {
      statusCodes[status] = (statusCodes[status] ?? 0) + 1;
    }));
  }
  await Promise.all(bookings);
  const bookingMs = Date.now() - since;
  process.stdout.write(`booked in ${seconds(bookingMs)} ${JSON.stringify(statusCodes)}; delivering ... `);
  const wait = await waitForDelivery({ table, since, received, boundMs: LATENCY.boundMs });
  process.stdout.write(wait.drained ? `done ${seconds(wait.elapsedMs)} after the last booking\n` : `still ${wait.counts.pending} pending after ${seconds(LATENCY.boundMs)}\n`);
  return { title: 'paced', how: `${LATENCY.bookings} bookings at ${LATENCY.pacedPerSecond}/s`, statusCodes, bookingMs, ...deliveryOf(table.rowsSince(since), received) };
}

/** The BFF each booking phase loads, by phase index, as the CPU accounting names it. */
const BFF_OF_PHASE = ['BFF without', 'BFF notifying', 'BFF queue-only'];
const median = (values) => percentile([...values].sort((a, b) => a - b), 50);

/** Bookings without notifications, with them, and queued only, in turns; the outbox drained before each turn. */
async function measureBookings({ server, silent, notifying, queueOnly, receivers, table, received, slots }) {
  await drain(table, received);
  const since = Date.now();
  const drains = [];
  // Where each phase's CPU went, over its measured turns only (not the warm-ups, not the waits between turns).
  const cpu = cpuAccounting({
    'API server': server.pid,
    [BFF_OF_PHASE[0]]: silent.pid,
    [BFF_OF_PHASE[1]]: notifying.pid,
    [BFF_OF_PHASE[2]]: queueOnly.pid,
    receivers: receivers.pid,
    'autocannon (this process)': process.pid,
  });
  const phases = await runInterleaved(
    [
      { title: 'BFF booking, no notifications', options: bffBookingLoadOptions(silent.base, slots) },
      { title: 'BFF booking, e-mail + webhook on', options: bffBookingLoadOptions(notifying.base, slots) },
      { title: 'BFF booking, queued only (OUTBOX_WORKER=false)', options: bffBookingLoadOptions(queueOnly.base, slots) },
    ],
    {
      ...BOOKING_TURNS,
      rotate: true,
      beforeTurn: async (index) => {
        cpu.stop();
        drains.push(await drain(table, received));
        cpu.start(index);
      },
    },
  );
  cpu.stop();
  await drain(table, received);
  const [off, on, queued] = phases.map((phase, index) => ({
    ...phase,
    medianPerSecond: median(phase.turnsPerSecond),
    // The BFF's own CPU per booking answered, over its measured turns: what other work on the machine moves least.
    bffCpuMsPerBooking: (1000 * (cpu.totals[index]?.[BFF_OF_PHASE[index]] ?? NaN)) / phase.totalRequests,
  }));
  // Each round has one turn of every phase, close in time: the ratio within a round cancels slow changes of load.
  const pairedShare = (phase) => median(phase.turnsPerSecond.map((perSecond, round) => (100 * perSecond) / off.turnsPerSecond[round]));
  return {
    off,
    on,
    queued,
    pairedShare: { on: pairedShare(on), queued: pairedShare(queued) },
    drains,
    cpu: cpu.totals,
    delivery: deliveryOf(table.rowsSince(since), received),
  };
}

/**
 * Both receivers down for `downMinutes` while bookings queue messages (OUTAGE.bookingsPerMinute, one wave
 * a minute from the start), then up again; waits at most TARGETS.outageRecoveryMs for every message.
 */
async function measureOutage({ notifying, table, received, receivers, slots, downMinutes }) {
  await drain(table, received);
  const since = Date.now();
  const downMs = downMinutes * 60_000;
  const waves = Math.ceil(downMinutes);
  const takenBefore = received.size;
  const statusCodes = {};
  const line = (phase, elapsedMs, counts) =>
    console.log(`    ${phase} ${clock(elapsedMs)}: ${counts.pending + counts.delivered + counts.dead} queued, ${counts.pending} pending, ` +
      `${counts.delivered} delivered, ${counts.dead} dead; taken by the receivers ${received.size - takenBefore}; load ${load()}`);

  await receivers.down();
  const downAt = Date.now();
  console.log(`  outage: both receivers down for ${downMinutes} min, ${OUTAGE.bookingsPerMinute} bookings a minute (${waves} waves)`);
  let nextProgress = downAt + OUTAGE.progressEveryMs;
  for (let wave = 0; wave < waves; wave++) {
    const due = downAt + wave * 60_000;
    while (Date.now() < due) {
      await sleep(Math.min(1000, due - Date.now()));
      if (Date.now() >= nextProgress) {
        line('down', Date.now() - downAt, table.countsSince(since));
        nextProgress += OUTAGE.progressEveryMs;
      }
    }
    const codes = await bookMany(notifying.base, slots, OUTAGE.bookingsPerMinute, { firstSequence: wave * OUTAGE.bookingsPerMinute + 1 });
    for (const [code, count] of Object.entries(codes)) statusCodes[code] = (statusCodes[code] ?? 0) + count;
  }
  while (Date.now() < downAt + downMs) {
    await sleep(Math.min(1000, downAt + downMs - Date.now()));
    if (Date.now() >= nextProgress && Date.now() < downAt + downMs) {
      line('down', Date.now() - downAt, table.countsSince(since));
      nextProgress += OUTAGE.progressEveryMs;
    }
  }
  const takenWhileDown = received.size - takenBefore;
  const atReturn = table.countsSince(since);
  const triesAtReturn = table.rowsSince(since).reduce((sum, row) => sum + row.attempts, 0);
  await receivers.up();
  const upAt = Date.now();
  line('up at', upAt - downAt, atReturn);
  const wait = await waitForDelivery({
    table,
    since,
    received,
    boundMs: TARGETS.outageRecoveryMs,
    progressEveryMs: OUTAGE.progressEveryMs,
    progress: (counts, elapsedMs) => line('back', elapsedMs, counts),
  });
  line(wait.drained ? 'all done' : 'gave up', wait.elapsedMs, wait.counts);
  const delivery = deliveryOf(table.rowsSince(since), received);
  const outageIds = new Set(table.rowsSince(since).map((row) => row.id));
  const deadByCli = (await listDeadWithCli(notifying.databaseUrl)).filter((entry) => outageIds.has(entry.id)).length;
  return {
    title: 'outage',
    how: `receivers down ${downMinutes} min, ${OUTAGE.bookingsPerMinute} bookings/min`,
    statusCodes,
    downMs: upAt - downAt,
    takenWhileDown,
    queuedAtReturn: atReturn,
    triesAtReturn,
    recoveryMs: delivery.lastTaken - upAt,
    drained: wait.drained,
    deadByCli,
    ...delivery,
  };
}

/** Stops a BFF of a part (SIGTERM, as a deployment stops it) and waits for its exit. */
async function stopBff(bff) {
  if (bff.child.exitCode !== null || bff.child.signalCode !== null) return;
  const exited = new Promise((resolve) => bff.child.once('exit', resolve));
  bff.child.kill('SIGTERM');
  await exited;
}

/** A BFF's counters (METRICS_PORT): its outbox tries by outcome, and its status lookups upstream by outcome. */
async function scrapeReminderCounters(metricsUrl) {
  const exposition = await (await fetch(metricsUrl)).text();
  const tries = {};
  for (const { labels, value } of samplesOf(exposition, 'bff_outbox_deliveries_total')) {
    if (labels.channel === 'email') tries[labels.outcome] = (tries[labels.outcome] ?? 0) + value;
  }
  const statusLookups = {};
  for (const { labels, value } of samplesOf(exposition, 'bff_upstream_requests_total')) {
    if (labels.operation?.includes('/appointments/status')) statusLookups[labels.outcome] = (statusLookups[labels.outcome] ?? 0) + value;
  }
  return { tries, statusLookups };
}

/**
 * REMINDERS.count reminders due in the same minute, two BFF instances on one PostgreSQL database delivering
 * them to a local SMTP server: how soon all are sent, that each is sent once, and each instance's memory.
 */
async function measureReminders({ upstreamUrl, keys, tempDir, serverDbPath, server }) {
  const postgres = await createBenchDatabase();
  if (postgres.unavailable) throw new Error(`the reminders part needs PostgreSQL: ${postgres.unavailable}`);
  const receivers = await startOutboxReceivers();
  const { received } = receivers;
  const metricsPorts = await Promise.all(Array.from({ length: REMINDERS.instances }, () => findFreePort()));
  // Both start at once on a database neither has migrated, as two instances of one deployment do.
  const instances = await Promise.all(
    metricsPorts.map((metricsPort, index) =>
      startBff({
        name: `reminders-${index + 1}`,
        upstreamUrl,
        keys,
        tempDir,
        databaseUrl: postgres.url,
        extraEnv: {
          BOOKING_REF_SECRET: REMINDERS.referenceSecret,
          SMTP_URL: receivers.bffSettings.SMTP_URL,
          MAIL_FROM: receivers.bffSettings.MAIL_FROM,
          PUBLIC_ORIGIN: 'https://book.bench.example',
          REMINDER_HOURS_BEFORE: String(REMINDERS.hoursBefore),
          METRICS_PORT: String(metricsPort),
        },
      }),
    ),
  );
  const outbox = openPostgresOutbox(postgres.url);
  const memory = instances.map(() => ({ maxRssBytes: 0, atDueRssBytes: NaN, peakRssBytes: NaN }));
  const sampleMemory = async () => {
    const read = await Promise.all(instances.map((bff) => readMemory(bff.child)));
    read.forEach(({ rssBytes }, index) => (memory[index].maxRssBytes = Math.max(memory[index].maxRssBytes, rssBytes)));
    return read;
  };
  try {
    // The bookings: made now, their appointments a day after the due time, all at the same minute.
    const writtenAt = Date.now();
    const dueAt = Math.ceil((writtenAt + REMINDERS.writeAheadMs) / 60_000) * 60_000;
    const clinic = readServerClinic(serverDbPath, keys.care_id);
    const start = wallClockIn(dueAt + REMINDERS.hoursBefore * 3_600_000, clinic.zone);
    process.stdout.write(`  ${REMINDERS.count} appointments upstream (Scheduled, all at ${start.time} in ${clinic.zone}, ${REMINDERS.hoursBefore} h after the due time) ... `);
    const appointments = seedScheduledAppointments(serverDbPath, keys.care_id, { count: REMINDERS.count, minutes: REMINDERS.minutes, ...start });
    process.stdout.write(`done; their bookings' memory in the BFFs' database, ${REMINDERS.writeConcurrency} at a time ... `);
    const ids = await writeReminders({
      databaseUrl: postgres.url,
      referenceSecret: REMINDERS.referenceSecret,
      appointments,
      ...start,
      minutes: REMINDERS.minutes,
      clinic,
      hoursBefore: REMINDERS.hoursBefore,
      writtenAt,
      concurrency: REMINDERS.writeConcurrency,
    });
    const writtenMs = Date.now() - writtenAt;
    const beforeDue = await outbox.counts();
    console.log(`written in ${seconds(writtenMs)}; due at ${new Date(dueAt).toISOString()}, ${seconds(dueAt - Date.now())} from now`);

    // Until the due time nothing may go; memory sampled from here on.
    while (Date.now() < dueAt) {
      await sampleMemory();
      await sleep(Math.min(REMINDERS.sampleEveryMs, Math.max(0, dueAt - Date.now())));
    }
    const takenBeforeDue = ids.filter((id) => received.has(id)).length;
    // Where the CPU goes while they are delivered (PostgreSQL's own is not counted: not a child of this run).
    const cpuOf = { ...Object.fromEntries(instances.map((bff, index) => [`reminders-${index + 1}`, bff.pid])), 'API server': server.pid, receivers: receivers.pid };
    const cpu = cpuAccounting(cpuOf);
    cpu.start('delivery');
    (await sampleMemory()).forEach(({ rssBytes }, index) => (memory[index].atDueRssBytes = rssBytes));
    console.log(`  due now: ${beforeDue.pending} pending; taken before the due time ${takenBeforeDue}; ` +
      `RSS ${memory.map((m) => `${mib(m.atDueRssBytes)} MiB`).join(' / ')}; load ${load()}`);

    let counts = beforeDue;
    let nextProgress = dueAt + REMINDERS.progressEveryMs;
    for (;;) {
      await sampleMemory();
      const taken = ids.filter((id) => received.has(id)).length;
      counts = await outbox.counts();
      const elapsedMs = Date.now() - dueAt;
      if ((counts.pending === 0 && taken + counts.dead >= ids.length) || elapsedMs > REMINDERS.boundMs) break;
      if (Date.now() >= nextProgress) {
        console.log(`    ${clock(elapsedMs)}: ${counts.pending} pending, ${counts.delivered} delivered, ${counts.dead} dead; taken ${taken}; ` +
          `RSS ${(await sampleMemory()).map(({ rssBytes }) => `${mib(rssBytes)} MiB`).join(' / ')}; load ${load()}`);
        nextProgress += REMINDERS.progressEveryMs;
      }
      await sleep(REMINDERS.sampleEveryMs);
    }
    cpu.stop();
    const deliveryMs = Date.now() - dueAt;
    const peaks = await Promise.all(instances.map((bff) => readMemory(bff.child)));
    peaks.forEach(({ peakRssBytes, rssBytes }, index) => {
      memory[index].peakRssBytes = peakRssBytes;
      memory[index].maxRssBytes = Math.max(memory[index].maxRssBytes, rssBytes);
    });
    const counters = await Promise.all(metricsPorts.map((port) => scrapeReminderCounters(`http://${HOST}:${port}/metrics`)));
    const rows = (await outbox.reminders()).map((row) => ({ ...row, created_at: row.dueAt }));
    const delivery = deliveryOf(rows, received);
    console.log(`  ${delivery.once} of ${ids.length} taken once, the last ${seconds(delivery.lastTaken - dueAt)} after the due time; load ${load()}`);
    return {
      title: 'reminders',
      how: `${REMINDERS.count} due in one minute, ${REMINDERS.instances} BFFs on PostgreSQL`,
      ...delivery,
      count: ids.length,
      writtenMs,
      dueAt,
      takenBeforeDue,
      allSentMs: delivery.lastTaken - dueAt,
      pendingAtEnd: counts.pending,
      addressesKept: await outbox.addresses(),
      cpuSeconds: cpu.totals.delivery,
      deliveryMs,
      instances: instances.map((_, index) => ({ name: `reminders-${index + 1}`, ...memory[index], ...counters[index] })),
    };
  } finally {
    await outbox.close();
    // Before the database is dropped (at clean-up), so that neither instance sees it go.
    await Promise.all(instances.map(stopBff));
  }
}

const mib = (bytes) => fixed(bytes / (1024 * 1024), 0);

// ---------------------------------------------------------------------------------------------------
// Report
// ---------------------------------------------------------------------------------------------------

const onlyOk = (statusCodes) => Object.keys(statusCodes).every((code) => code === '200') && (statusCodes['200'] ?? 0) > 0;

function printDeliveryTable(parts) {
  const header = ['part', 'queued by', 'messages', 'once', 'repeats', 'missing', 'dead', 'p50 ms', 'p95 ms', 'max ms', 'e-mail p95', 'webhook p95', 'msg/s'];
  const rows = parts.map((part) => [
    part.title,
    part.how,
    part.messages,
    part.once,
    part.repeats,
    part.missing,
    part.dead,
    fixed(part.p50Ms, 0),
    fixed(part.p95Ms, 0),
    fixed(part.maxMs, 0),
    fixed(part.p95ByChannel.email, 0),
    fixed(part.p95ByChannel.webhook, 0),
    fixed(part.perSecond, 1),
  ]);
  console.log(`\n${formatTable(header, rows)}`);
  console.log('(latency: taken by the receiver minus created_at in the outbox table, a reminder\'s minus its due time; msg/s: messages ' +
    'over the time from the first queued (due) to the last taken; outage latencies include the outage)');
}

function evaluate(measured) {
  const { burst, paced, bookings, outage, reminders, receivers, downMinutes } = measured;
  const checks = [];
  const deliveredOnce = (part) => ({
    label: `${part.title}: each of the ${part.messages} messages taken exactly once (by message id / Message-ID)`,
    pass: part.allOnce && part.messages > 0,
    detail: `${part.once} once, ${part.repeats} repeated, ${part.missing} missing, ${part.wrongChannel} on another channel`,
  });
  const p95 = (part) => ({
    label: `${part.title}: p95 enqueue-to-delivery <= ${TARGETS.p95DeliveryMs} ms with the receivers up`,
    pass: part.p95Ms <= TARGETS.p95DeliveryMs,
    detail: `${fixed(part.p95Ms, 0)} ms (e-mail ${fixed(part.p95ByChannel.email, 0)}, webhook ${fixed(part.p95ByChannel.webhook, 0)})`,
  });
  const validBookings = (title, statusCodes) => ({
    label: `validity: ${title} bookings all answered 200`,
    pass: onlyOk(statusCodes),
    detail: JSON.stringify(statusCodes),
  });
  for (const part of [burst, paced].filter(Boolean)) checks.push(deliveredOnce(part), p95(part), validBookings(part.title, part.statusCodes));
  if (bookings) {
    const share = (100 * bookings.on.medianPerSecond) / bookings.off.medianPerSecond;
    checks.push({
      label: `booking with e-mail + webhook on >= ${TARGETS.notifyingShareOfSilentPercent}% of the same without (median turns)`,
      pass: share >= TARGETS.notifyingShareOfSilentPercent,
      detail: `${fixed(share, 1)}%: ${fixed(bookings.on.medianPerSecond, 0)}/s against ${fixed(bookings.off.medianPerSecond, 0)}/s`,
    });
    for (const phase of [bookings.off, bookings.on, bookings.queued]) {
      checks.push({
        label: `validity: ${phase.title} answered only 200, no connection errors`,
        pass: phase.non2xx === 0 && phase.errors === 0 && phase.totalRequests > 0,
        detail: `status codes ${JSON.stringify(phase.statusCodes)}, ${phase.errors} errors`,
      });
    }
    checks.push({ ...deliveredOnce({ ...bookings.delivery, title: 'booking turns' }) });
  }
  if (outage) {
    checks.push(
      deliveredOnce(outage),
      {
        label: `outage: none dead (outbox table, and bff outbox list --state dead)`,
        pass: outage.dead === 0 && outage.deadByCli === 0,
        detail: `${outage.dead} in the table, ${outage.deadByCli} listed`,
      },
      {
        label: `outage: every message taken within ${TARGETS.outageRecoveryMs / 60_000} min of the receivers' return`,
        pass: outage.drained && outage.allOnce && outage.recoveryMs <= TARGETS.outageRecoveryMs,
        detail: `the last ${seconds(outage.recoveryMs)} after it`,
      },
      {
        label: `outage: the receivers were down for the whole outage (${downMinutes} min), nothing taken meanwhile`,
        pass: outage.takenWhileDown === 0 && outage.downMs >= downMinutes * 60_000,
        detail: `down ${seconds(outage.downMs)}, ${outage.takenWhileDown} taken`,
      },
      validBookings('outage', outage.statusCodes),
    );
    if (downMinutes < OUTAGE.defaultDownMinutes) {
      checks.push({ label: `outage: the target's outage is ${OUTAGE.defaultDownMinutes} min`, pass: false, detail: `a trial run of ${downMinutes} min` });
    }
  }
  if (reminders) {
    const sent = reminders.instances.map((instance) => `${instance.name} ${instance.tries.delivered ?? 0}`).join(', ');
    checks.push(
      {
        label: `reminders: each of the ${REMINDERS.count} taken by the SMTP server exactly once (by Message-ID), none dead, none pending`,
        pass: reminders.allOnce && reminders.messages === REMINDERS.count && reminders.dead === 0 && reminders.pendingAtEnd === 0,
        detail: `${reminders.once} once, ${reminders.repeats} repeated, ${reminders.missing} missing, ${reminders.dead} dead, ${reminders.pendingAtEnd} pending; sent by ${sent}`,
      },
      {
        label: `reminders: all sent within ${TARGETS.remindersAllSentMs / 60_000} min of their due time`,
        pass: reminders.allOnce && reminders.allSentMs <= TARGETS.remindersAllSentMs,
        detail: `the last ${seconds(reminders.allSentMs)} after it (p50 ${fixed(reminders.p50Ms / 1000, 1)} s, p95 ${fixed(reminders.p95Ms / 1000, 1)} s, ${fixed(reminders.perSecond, 0)}/s)`,
      },
      ...reminders.instances.map((instance) => ({
        label: `reminders: ${instance.name}'s resident memory under ${mib(TARGETS.instanceRssBytes)} MiB (VmRSS sampled, and VmHWM)`,
        pass: Math.max(instance.maxRssBytes, instance.peakRssBytes) < TARGETS.instanceRssBytes,
        detail: `max VmRSS ${mib(instance.maxRssBytes)} MiB, VmHWM ${mib(instance.peakRssBytes)} MiB, ${mib(instance.atDueRssBytes)} MiB at the due time`,
      })),
      {
        label: 'validity: no reminder taken before its due time, every one written before it, both instances sent some',
        pass: reminders.takenBeforeDue === 0 && reminders.writtenMs < REMINDERS.writeAheadMs && reminders.instances.every((instance) => (instance.tries.delivered ?? 0) > 0),
        detail: `${reminders.takenBeforeDue} taken early; written in ${seconds(reminders.writtenMs)}; sent by ${sent}`,
      },
    );
  }
  if (!receivers) return checks;
  const { tally } = receivers;
  checks.push(
    {
      label: 'validity: over the whole run, the clinic\'s receivers took no message the outbox does not hold, and none twice',
      pass: measured.unknown === 0 && measured.repeated === 0,
      detail: `${measured.unknown} unknown ids, ${measured.repeated} taken more than once`,
    },
    {
      label: 'validity: every webhook signature held (standardwebhooks) and every mail had the outbox\'s Message-ID',
      pass: tally.unsigned === 0 && tally.withoutId === 0,
      detail: `${tally.webhook} webhooks, ${tally.email} mails; ${tally.unsigned} not verified, ${tally.withoutId} without an id`,
    },
    {
      label: 'validity: a sample mail parsed by mailparser has its Message-ID, subject, text and HTML parts',
      pass: tally.emailSample === true,
      detail: tally.emailSample === undefined ? 'no mail taken' : String(tally.emailSample),
    },
  );
  return checks;
}

function printReport(measured, checks) {
  const { burst, paced, bookings, outage, reminders } = measured;
  const delivery = [burst, paced, outage, reminders].filter(Boolean);
  if (delivery.length > 0) printDeliveryTable(delivery);
  for (const part of [burst, paced].filter(Boolean)) {
    console.log(`  ${part.title}: ${part.messages} messages queued by ${part.how}: booked in ${seconds(part.bookingMs)}, ` +
      `the last taken ${seconds(part.lastTaken - part.firstCreated)} after the first was queued; most tries of one message ${part.maxAttempts}`);
  }
  if (outage) {
    console.log(`  outage: ${outage.messages} messages queued while down (${outage.triesAtReturn} tries failed by the return); ` +
      `the last taken ${seconds(outage.recoveryMs)} after the receivers came back; most tries of one message ${outage.maxAttempts}`);
  }
  if (reminders) {
    console.log(`  reminders: ${reminders.messages} written in ${seconds(reminders.writtenMs)} (booking record, address, outbox row each), all due at ` +
      `${new Date(reminders.dueAt).toISOString()}; the last taken ${seconds(reminders.allSentMs)} after it; most tries of one ${reminders.maxAttempts}; ` +
      `${reminders.addressesKept} addresses kept at the end (until a week after the visit)`);
    const header = ['instance', 'delivered', 'failed tries', 'withdrawn', 'dead', 'status lookups', 'RSS at due MiB', 'max VmRSS MiB', 'VmHWM MiB'];
    const rows = reminders.instances.map((instance) => [
      instance.name,
      instance.tries.delivered ?? 0,
      instance.tries.failed ?? 0,
      instance.tries.withdrawn ?? 0,
      instance.tries.dead ?? 0,
      Object.entries(instance.statusLookups).map(([outcome, count]) => `${count} ${outcome}`).join(', ') || '0',
      mib(instance.atDueRssBytes),
      mib(instance.maxRssBytes),
      mib(instance.peakRssBytes),
    ]);
    console.log(`\n${formatTable(header, rows)}`);
    const cpuLine = Object.entries(reminders.cpuSeconds)
      .map(([name, cpuSeconds]) => `${name} ${fixed(cpuSeconds, 1)} s (${fixed((100 * cpuSeconds) / (reminders.deliveryMs / 1000), 0)}% of one CPU)`)
      .join(', ');
    const bffCpu = reminders.instances.reduce((sum, instance) => sum + (reminders.cpuSeconds[instance.name] ?? 0), 0);
    console.log(`  CPU from the due time to the end (${seconds(reminders.deliveryMs)}, ${cpus().length} CPUs): ${cpuLine}; ` +
      `the BFFs' ${fixed((1000 * bffCpu) / reminders.messages, 2)} ms per reminder`);
    console.log('(latency of a reminder: taken by the SMTP server minus its due time; tries and status lookups from each instance\'s ' +
      `metrics; VmRSS sampled every ${REMINDERS.sampleEveryMs} ms from before the due time, VmHWM the kernel's peak since the start)`);
  }
  if (bookings) {
    printResultsTable([bookings.off, bookings.on, bookings.queued], [
      'each booking a distinct dentist, day and start; before each turn the notifying BFF\'s outbox was let drain ' +
        `(${bookings.drains.length} waits, median ${seconds(percentile([...bookings.drains].sort((a, b) => a - b), 50))}, ` +
        `longest ${seconds(Math.max(...bookings.drains))})`,
    ]);
    for (const phase of [bookings.off, bookings.on, bookings.queued]) {
      console.log(`  ${phase.title}: median turn ${fixed(phase.medianPerSecond, 0)}/s; turns ${phase.turnsPerSecond.map((value) => fixed(value, 0)).join(', ')}`);
    }
    const shareOfMedians = (phase) => fixed((100 * phase.medianPerSecond) / bookings.off.medianPerSecond, 1);
    console.log(`  e-mail + webhook on = ${shareOfMedians(bookings.on)}% of no notifications by the medians (the target), ` +
      `${fixed(bookings.pairedShare.on, 1)}% by the median of the ${bookings.on.turnsPerSecond.length} rounds' own ratios`);
    console.log(`  queued only = ${shareOfMedians(bookings.queued)}% by the medians, ${fixed(bookings.pairedShare.queued, 1)}% by the rounds ` +
      '(information: the request path\'s own cost, the outbox rows written, without the worker delivering beside it)');
    console.log(`  the BFF's own CPU per booking: no notifications ${fixed(bookings.off.bffCpuMsPerBooking, 2)} ms, ` +
      `e-mail + webhook on ${fixed(bookings.on.bffCpuMsPerBooking, 2)} ms (with what its worker delivered during its turns), ` +
      `queued only ${fixed(bookings.queued.bffCpuMsPerBooking, 2)} ms`);
    console.log(`  CPU during each phase's measured turns, % of one CPU (${cpus().length} CPUs = ${cpus().length * 100}%):`);
    [bookings.off, bookings.on, bookings.queued].forEach((phase, index) => {
      const used = bookings.cpu[index] ?? {};
      const measuredSeconds = BOOKING_TURNS.durationSeconds;
      console.log(`    ${phase.title}: ${Object.entries(used).map(([name, cpuSeconds]) => `${name} ${fixed((100 * cpuSeconds) / measuredSeconds, 0)}%`).join(', ')}`);
    });
  }
  console.log('');
  printChecks(checks);
}

// ---------------------------------------------------------------------------------------------------
// Main
// ---------------------------------------------------------------------------------------------------

async function runBenchmark() {
  const { parts, downMinutes } = parseOptions();
  console.log(`outbox benchmark: node ${process.version}, ${cpus().length} CPUs, load average ${load()}; parts ${parts.join(', ')}` +
    `${parts.includes('outage') ? `; outage ${downMinutes} min` : ''}; outbox settings at their defaults, LOG_LEVEL=info`);

  const tempDir = await makeTempDir('clinic-bench-outbox-');
  const apiPort = await findFreePort();
  const serverDbPath = join(tempDir, 'server.db');
  const env = serverEnvironment(`file:${serverDbPath}`, apiPort);
  const keys = await seedDemoClinic(env);
  await runClinicCli(env, ['clinic', 'set-rules', '--clinic', String(keys.care_id), '--horizon-days', String(HORIZON_DAYS)]);
  const server = await startApiServer(env);
  const upstreamUrl = `http://${HOST}:${apiPort}/api/v1`;
  const measured = { downMinutes };

  // The clinic's messages (latency, booking, outage): one notifying BFF on SQLite, its receivers, real bookings.
  if (parts.some((part) => part !== 'reminders')) {
    const receivers = await startOutboxReceivers();
    const { received } = receivers;
    measured.receivers = receivers;
    const notifying = await startBff({ name: 'notifying', upstreamUrl, keys, tempDir, extraEnv: receivers.bffSettings });
    const clinic = await readClinic(notifying.base);
    const slots = createSlotSequence({ ...clinic, days: BOOKING_DAYS });
    console.log(`${slots.capacity} distinct slots (dentist, day, start) in the next ${BOOKING_DAYS} days; messages queued by real bookings ` +
      'through the BFF (POST /api/appointments/book), one e-mail and one webhook each');
    const table = openOutboxTable(notifying.databasePath);
    await warnIfMachineIsBusy();
    try {
      if (parts.includes('latency')) {
        console.log(`\nlatency (load average ${load()})`);
        measured.burst = await measureBurst({ notifying, table, received, slots });
        measured.paced = await measurePaced({ notifying, table, received, slots });
      }
      if (parts.includes('booking')) {
        console.log(`\nbooking path with and without notifications (load average ${load()})`);
        const silent = await startBff({ name: 'silent', upstreamUrl, keys, tempDir, extraEnv: {} });
        const queueOnly = await startBff({ name: 'queue-only', upstreamUrl, keys, tempDir, extraEnv: { ...receivers.bffSettings, OUTBOX_WORKER: 'false' } });
        measured.bookings = await measureBookings({ server, silent, notifying, queueOnly, receivers, table, received, slots });
      }
      if (parts.includes('outage')) {
        console.log(`\noutage (load average ${load()})`);
        measured.outage = await measureOutage({ notifying, table, received, receivers, slots, downMinutes });
      }
      // Over the whole run: nothing taken that the outbox does not hold, nothing taken twice.
      const ids = new Set(table.rowsSince(0).map((row) => row.id));
      measured.unknown = [...received.keys()].filter((id) => !ids.has(id)).length;
      measured.repeated = [...received.values()].filter((taken) => taken.times.length > 1).length;
    } finally {
      table.close();
    }
    console.log(`\n${slots.used} of ${slots.capacity} slots booked`);
  } else {
    await warnIfMachineIsBusy();
  }
  if (parts.includes('reminders')) {
    console.log(`\nreminders (load average ${load()})`);
    measured.reminders = await measureReminders({ upstreamUrl, keys, tempDir, serverDbPath, server });
  }
  console.log(`\nload average at the end ${load()}`);

  const checks = evaluate(measured);
  printReport(measured, checks);
  return checks.every((check) => check.pass) ? 0 : 1;
}

await runAndExit(runBenchmark);
