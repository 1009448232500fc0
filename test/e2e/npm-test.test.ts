import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from './support/stack.js';

/**
 * scripts/test.mjs, what `npm test` runs, in a scratch project whose
 * `npm run check` is three commands, two passing and one failing, so that
 * what the check step reports can be told apart from what it ran.
 */
let project: string;
let output: string;
/** scripts/test.mjs and every script it imports, copied into each scratch project. */
const TEST_SCRIPTS = ['test.mjs', 'ensure-chromium.mjs', 'ensure-firefox.mjs', 'ensure-webkit.mjs', 'debian-packages.mjs', 'support/webkit-driver.mjs'];
let status: number | null;

const CHECK = ['node -e "process.exit(0)"', 'node -e "process.exit(3)"', 'node -e "process.exit(0)"'].join(' && ');

beforeAll(() => {
  project = mkdtempSync(join(tmpdir(), 'npm-test-'));
  mkdirSync(join(project, 'scripts', 'support'), { recursive: true });
  for (const file of TEST_SCRIPTS) copyFileSync(join(REPO_ROOT, 'scripts', file), join(project, 'scripts', file));
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'scratch', private: true, type: 'module', scripts: { check: CHECK } }));
  // Only the check step; any existing file stands in for Chromium, which this step does not use.
  const run = spawnSync(process.execPath, ['scripts/test.mjs'], {
    cwd: project,
    env: { ...process.env, TEST_STEPS: 'check', CHROME_PATH: process.execPath },
    encoding: 'utf8',
  });
  output = `${run.stdout}${run.stderr}`;
  status = run.status;
});
afterAll(() => rmSync(project, { recursive: true, force: true }));

describe('npm test (scripts/test.mjs)', () => {
  it('counts each command of npm run check as one check, passed or failed', () => {
    expect(output).toContain('== check (node ×3): 2 passed, 1 failed');
  });

  it('prints the time each step took after its counts', () => {
    expect(output).toMatch(/^== check \(node ×3\): 2 passed, 1 failed \((?:\d+ min )?\d+ s\)$/m);
  });

  it('never reports a check step of 0 passed, 0 failed', () => {
    expect(output).not.toMatch(/check[^\n]*: 0 passed, 0 failed/);
  });

  it('ends with the honest sum and the time the run took, and fails', () => {
    expect(output.trimEnd().split('\n').at(-1)).toMatch(/^tests: 2 passed, 1 failed \((?:\d+ min )?\d+ s\)$/);
    expect(status).toBe(1);
  });
});

describe('npm test with TEST_SHUFFLE_SEED', () => {
  /**
   * scripts/test.mjs's vitest step in a scratch project whose `npx` only notes the arguments it was given and
   * writes a report of one passed test: what the step asks vitest to do, without running it.
   */
  function vitestStep(shuffleSeed?: string): { args: string; output: string; status: number | null } {
    const scratch = mkdtempSync(join(tmpdir(), 'npm-test-shuffle-'));
    try {
      mkdirSync(join(scratch, 'scripts', 'support'), { recursive: true });
      mkdirSync(join(scratch, 'bin'));
      for (const file of TEST_SCRIPTS) copyFileSync(join(REPO_ROOT, 'scripts', file), join(scratch, 'scripts', file));
      writeFileSync(join(scratch, 'package.json'), JSON.stringify({ name: 'scratch', private: true, type: 'module', scripts: { check: 'true' } }));
      const report = JSON.stringify({ numPassedTests: 1, numFailedTests: 0, testResults: [] });
      writeFileSync(join(scratch, 'bin', 'npx'), `#!/bin/sh\necho "$@" > args.txt\nmkdir -p test-results\necho '${report}' > test-results/vitest.json\n`, { mode: 0o755 });
      const run = spawnSync(process.execPath, ['scripts/test.mjs'], {
        cwd: scratch,
        env: {
          ...process.env,
          PATH: `${join(scratch, 'bin')}:${process.env.PATH ?? ''}`,
          TEST_STEPS: 'vitest',
          CHROME_PATH: process.execPath,
          TEST_SHUFFLE_SEED: shuffleSeed ?? '',
        },
        encoding: 'utf8',
      });
      return { args: readFileSync(join(scratch, 'args.txt'), 'utf8').trim(), output: `${run.stdout}${run.stderr}`, status: run.status };
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  }

  it('runs vitest in the order a seed shuffles, and prints the seed', () => {
    const { args, output, status } = vitestStep('4711');

    expect(args).toMatch(/^vitest run .* --sequence\.shuffle --sequence\.seed=4711$/);
    expect(output).toContain('shuffled by seed 4711 (TEST_SHUFFLE_SEED=4711 replays it)');
    expect(status).toBe(0);
  });

  it('picks a seed of its own for "random", and prints it so that the order can be replayed', () => {
    const { args, output } = vitestStep('random');

    const seed = /--sequence\.seed=(\d+)$/.exec(args)?.[1];
    expect(seed).toMatch(/^\d+$/);
    expect(output).toContain(`shuffled by seed ${seed} (TEST_SHUFFLE_SEED=${seed} replays it)`);
  });

  it("keeps vitest's own order when unset", () => {
    const { args, output } = vitestStep();

    expect(args).not.toContain('--sequence');
    expect(output).not.toContain('shuffled');
  });
});
