// `npm test`: runs every check and test runner in turn and ends with one line,
// `tests: N passed, N failed (7 min 12 s)`, summing them all, with the time taken. A runner that crashes before
// reporting counts as one failure, so a broken runner can never look green.
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { delimiter, resolve } from 'node:path';
import { ensureChromium } from './ensure-chromium.mjs';
import { ensureFirefox } from './ensure-firefox.mjs';
import { ensureWebKit } from './ensure-webkit.mjs';

const started = Date.now();
mkdirSync('test-results', { recursive: true });

/** 432 100 ms → "7 min 12 s": the run's whole time, printed after the counts. */
function elapsed(ms) {
  const seconds = Math.round(ms / 1000);
  return seconds < 60 ? `${seconds} s` : `${Math.floor(seconds / 60)} min ${seconds % 60} s`;
}

/** The commands of `npm run check` (package.json), each on its own: `a && b && c` is a, b and c. */
const checkCommands = JSON.parse(readFileSync('package.json', 'utf8'))
  .scripts.check.split('&&')
  .map((command) => command.trim())
  .filter(Boolean);

/** "tsc --noEmit && tsc --noEmit -p test/widget && eslint ." → "tsc ×2 + eslint". */
function describeChecks(commands) {
  const counts = new Map();
  for (const command of commands) {
    const tool = command.split(/\s+/)[0];
    counts.set(tool, (counts.get(tool) ?? 0) + 1);
  }
  return [...counts].map(([tool, count]) => (count > 1 ? `${tool} ×${count}` : tool)).join(' + ');
}

/**
 * TEST_SHUFFLE_SEED=1234 runs the vitest step's files and tests in an order shuffled by that seed (`random`: by a
 * seed of its own), so that a test that counts on another having run first fails; the step prints the seed, and the
 * same seed replays the same order. Unset, the order is vitest's own.
 */
function shuffleSeed(setting) {
  if (setting === undefined || setting === '') return undefined;
  const seed = setting === 'random' ? Math.floor(Math.random() * 1_000_000) : Number(setting);
  if (!Number.isSafeInteger(seed) || seed < 0) {
    console.error(`TEST_SHUFFLE_SEED must be a whole number or "random", not "${setting}"`);
    process.exit(2);
  }
  return seed;
}
const seed = shuffleSeed(process.env.TEST_SHUFFLE_SEED);

/** Each step: how to run it and how to read its counts afterwards. */
const steps = [
  {
    key: 'check',
    // `npm run check`, one command at a time, so each counts as one check passed or failed.
    name: `check (${describeChecks(checkCommands)})`,
    commands: checkCommands,
  },
  {
    key: 'vitest',
    name: 'vitest (server and BFF over HTTP)',
    command: [
      'npx',
      'vitest',
      'run',
      '--reporter=default',
      '--reporter=json',
      '--outputFile=test-results/vitest.json',
      ...(seed === undefined ? [] : ['--sequence.shuffle', `--sequence.seed=${seed}`]),
    ],
    before: () => {
      rmSync('test-results/vitest.json', { force: true });
      if (seed !== undefined) console.log(`vitest: files and tests in an order shuffled by seed ${seed} (TEST_SHUFFLE_SEED=${seed} replays it)`);
    },
    counts: () => vitestCounts('test-results/vitest.json'),
  },
  {
    key: 'wtr',
    name: 'web-test-runner (the widget in Chromium, Firefox and WebKit)',
    command: ['npx', 'web-test-runner'],
    before: () => rmSync('test-results/wtr.json', { force: true }),
    counts: () => JSON.parse(readFileSync('test-results/wtr.json', 'utf8')),
  },
  {
    key: 'e2e',
    name: 'end-to-end (playwright-core, real stack)',
    command: ['npx', 'vitest', 'run', '--config', 'vitest.e2e.config.ts', '--reporter=default', '--reporter=json', '--outputFile=test-results/e2e.json'],
    before: () => rmSync('test-results/e2e.json', { force: true }),
    counts: () => vitestCounts('test-results/e2e.json'),
  },
];

/** Passed and failed tests from a vitest JSON report; a file that fails to load counts as a failure. */
function vitestCounts(path) {
  const report = JSON.parse(readFileSync(path, 'utf8'));
  const failedSuitesWithoutTests = report.testResults.filter(
    (file) => file.status === 'failed' && !file.assertionResults.some((test) => test.status === 'failed'),
  ).length;
  return { passed: report.numPassedTests, failed: report.numFailedTests + failedSuitesWithoutTests };
}

// Browser tests need Chromium: found, installed from Debian's packages, or one clear line.
try {
  process.env.CHROME_PATH = ensureChromium();
} catch (error) {
  console.error(error.message);
  console.log(`tests: 0 passed, 1 failed (${elapsed(Date.now() - started)})`);
  process.exit(1);
}

// Firefox and WebKit too, where they can be had; without one its tests say so and skip (they fail under
// REQUIRE_SERVICES=1).
try {
  process.env.FIREFOX_PATH = ensureFirefox();
} catch (error) {
  console.log(`firefox: ${error.message}`);
}
try {
  ensureWebKit();
} catch (error) {
  console.log(`webkit: ${error.message}`);
}

/** Runs a command with its output on this terminal; true when it exits 0. */
function run([command, ...args]) {
  return spawnSync(command, args, { stdio: 'inherit' }).status === 0;
}

/**
 * Checks that report no counts of their own: each command is one check,
 * passed when it exits 0. Run by the shell with node_modules/.bin first on
 * the PATH, as `npm run` runs them, all at once (tsc and eslint each use one
 * core, and wait on the disk): each one's output is printed whole, in order,
 * once it is done.
 */
async function runChecks(commands) {
  const env = { ...process.env, PATH: `${resolve('node_modules/.bin')}${delimiter}${process.env.PATH ?? ''}` };
  const runs = commands.map(
    (command) =>
      new Promise((done) => {
        const child = spawn(command, { shell: true, stdio: ['ignore', 'pipe', 'pipe'], env });
        const output = [];
        child.stdout.on('data', (chunk) => output.push(chunk));
        child.stderr.on('data', (chunk) => output.push(chunk));
        child.on('error', (error) => output.push(Buffer.from(`${error.message}\n`)));
        child.on('close', (code) => done({ ok: code === 0, output: Buffer.concat(output) }));
      }),
  );
  let ok = 0;
  for (const [index, finished] of runs.entries()) {
    const { ok: passed, output } = await finished;
    process.stdout.write(output);
    if (passed) ok += 1;
    else console.log(`${commands[index]}: failed`);
  }
  return { passed: ok, failed: commands.length - ok };
}

/** A test runner: its own report's counts, and at least one failure if it exited non-zero. */
function runCounted(step) {
  const ok = run(step.command);
  let counts;
  try {
    counts = step.counts(ok);
  } catch {
    counts = { passed: 0, failed: 1 };
  }
  if (!ok && counts.failed === 0) counts.failed = 1;
  return counts;
}

// TEST_STEPS=check,vitest runs only those steps (keys above); all of them by default.
const only = process.env.TEST_STEPS?.split(',').map((key) => key.trim());
const chosen = only ? steps.filter((step) => only.includes(step.key)) : steps;

let passed = 0;
let failed = 0;
for (const step of chosen) {
  console.log(`\n== ${step.name}`);
  const stepStarted = Date.now();
  step.before?.();
  const counts = step.commands ? await runChecks(step.commands) : runCounted(step);
  passed += counts.passed;
  failed += counts.failed;
  // Each step's own time too, so a slow lane shows which it is.
  console.log(`== ${step.name}: ${counts.passed} passed, ${counts.failed} failed (${elapsed(Date.now() - stepStarted)})`);
}

// The summary line that CI and test/e2e/npm-test.test.ts read; the time in brackets after it.
console.log(`tests: ${passed} passed, ${failed} failed (${elapsed(Date.now() - started)})`);
process.exit(failed === 0 ? 0 : 1);
