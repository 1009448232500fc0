// Child processes, temp dirs and cleanup for the benchmarks. Every child and temp dir made here is
// registered at once, so cleanUp() (run on success, on errors and on SIGINT/SIGTERM) can undo it all.

import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root (bench/support/../..). */
export const ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)));
/** Everything listens and connects on loopback only. */
export const HOST = '127.0.0.1';

const STARTUP_TIMEOUT_MS = 15_000;
const STOP_TIMEOUT_MS = 15_000;

/** Everything that must be undone at the end: started children, other stop functions, and temp dirs. */
const resources = { children: [], stoppers: [], tempDirs: [] };

export const sleep = (ms) => new Promise((done) => setTimeout(done, ms));

/** A new temp dir, removed by cleanUp(). */
export async function makeTempDir(prefix) {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  resources.tempDirs.push(dir);
  return dir;
}

/** A free TCP port on 127.0.0.1: listen on port 0, read the port the OS chose, close. */
export async function findFreePort() {
  const probe = createServer();
  probe.listen(0, HOST);
  await once(probe, 'listening');
  const { port } = probe.address();
  probe.close();
  await once(probe, 'close');
  return port;
}

/**
 * Spawns `node ...args` with stderr kept (last 8 KB) so a failed start can be explained. stdout is
 * ignored unless `onStdoutLine` is given: then it is piped and read line by line for as long as the
 * child runs (a pipe nobody reads fills up and would block the child's logger). The child is
 * registered for cleanup at once.
 */
export function spawnNode(name, args, env, { cwd = ROOT, onStdoutLine } = {}) {
  const stdout = onStdoutLine ? 'pipe' : 'ignore';
  const child = spawn(process.execPath, args, { cwd, env, stdio: ['ignore', stdout, 'pipe'] });
  child.benchName = name;
  child.stderrTail = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (chunk) => {
    child.stderrTail = (child.stderrTail + chunk).slice(-8192);
  });
  if (onStdoutLine) {
    let partial = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk) => {
      const lines = (partial + chunk).split('\n');
      partial = lines.pop();
      for (const line of lines) onStdoutLine(line);
    });
  }
  resources.children.push(child);
  return child;
}

function hasExited(child) {
  return child.exitCode !== null || child.signalCode !== null;
}

/** SIGTERM, then wait for the exit; SIGKILL if it has not exited within STOP_TIMEOUT_MS. */
async function stopChild(child) {
  if (hasExited(child)) return;
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  const timer = setTimeout(() => {
    if (!hasExited(child)) child.kill('SIGKILL');
  }, STOP_TIMEOUT_MS);
  await exited;
  clearTimeout(timer);
}

/** Throws, with the child's last stderr lines, when it is no longer running. */
function assertStillRunning(child) {
  if (!hasExited(child)) return;
  // The servers exit 0 only from their SIGTERM/SIGINT handler: something outside the benchmark stopped it.
  const how = child.signalCode
    ? `signal ${child.signalCode}`
    : `code ${child.exitCode}${child.exitCode === 0 ? ', i.e. it was sent SIGTERM or SIGINT by another process' : ''}`;
  const stderr = child.stderrTail.trim();
  throw new Error(`${child.benchName} exited during the benchmark (${how})${stderr ? `:\n${stderr}` : ''}`);
}

/** Throws when any started child has exited: numbers measured against a dead server mean nothing. */
export function assertAllRunning() {
  resources.children.forEach(assertStillRunning);
}

/**
 * Registers `stop` (returning a promise) for cleanUp(), for what is not a spawnNode() child (a browser,
 * an in-process server); returns a function that runs it once and unregisters it.
 */
export function stopAtCleanUp(stop) {
  let stopped;
  const once = () => (stopped ??= Promise.resolve().then(stop));
  resources.stoppers.push(once);
  return () => {
    resources.stoppers = resources.stoppers.filter((other) => other !== once);
    return once();
  };
}

/** Stops every child (and everything registered with stopAtCleanUp) and removes the temp dirs; safe to call twice. */
export async function cleanUp() {
  const stoppers = resources.stoppers.splice(0);
  await Promise.allSettled(stoppers.map((stop) => stop()));
  const children = resources.children.splice(0);
  await Promise.allSettled(children.map(stopChild));
  const tempDirs = resources.tempDirs.splice(0);
  await Promise.allSettled(tempDirs.map((dir) => rm(dir, { recursive: true, force: true })));
}

/** Ctrl-C or a kill of the benchmark still stops the children and removes the temp dirs. */
function cleanUpOnSignals() {
  for (const signal of ['SIGINT', 'SIGTERM']) {
    process.once(signal, () => {
      console.error(`\nbenchmark interrupted (${signal}); cleaning up`);
      void cleanUp().finally(() => process.exit(130));
    });
  }
}

/**
 * Runs a benchmark and exits with its code (0 every target passed, 1 a target failed), or 2 when it
 * threw, i.e. the benchmark itself could not run. Children and temp dirs are cleaned up in every case.
 */
export async function runAndExit(runBenchmark) {
  cleanUpOnSignals();
  let exitCode = 2;
  try {
    exitCode = await runBenchmark();
  } catch (error) {
    console.error(`\nbenchmark could not run: ${error instanceof Error ? error.message : String(error)}`);
  } finally {
    await cleanUp();
  }
  process.exit(exitCode);
}

/** Polls GET `url` until it answers 200; fails early if the child exits, or after the timeout. */
export async function waitUntilReady(child, url) {
  const deadline = Date.now() + STARTUP_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (hasExited(child)) {
      throw new Error(`${child.benchName} exited during start-up: ${child.stderrTail.trim() || `code ${child.exitCode}`}`);
    }
    try {
      const response = await fetch(url);
      await response.arrayBuffer();
      if (response.status === 200) return;
    } catch {
      // not listening yet
    }
    await sleep(100);
  }
  throw new Error(`${child.benchName} did not answer 200 on ${url} within ${STARTUP_TIMEOUT_MS} ms`);
}

/**
 * Resident memory of a running child from /proc/<pid>/status (Linux): VmRSS now and VmHWM, the peak
 * RSS so far, both in bytes. The child must be `node` itself (spawnNode), not a shell around it.
 */
export async function readMemory(child) {
  assertStillRunning(child);
  const status = await readFile(`/proc/${child.pid}/status`, 'utf8');
  const kib = (field) => {
    const match = new RegExp(`^${field}:\\s+(\\d+) kB$`, 'm').exec(status);
    if (!match) throw new Error(`no ${field} in /proc/${child.pid}/status`);
    return Number(match[1]) * 1024;
  };
  return { rssBytes: kib('VmRSS'), peakRssBytes: kib('VmHWM') };
}
