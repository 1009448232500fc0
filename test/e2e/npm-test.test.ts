import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
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
let status: number | null;

const CHECK = ['node -e "process.exit(0)"', 'node -e "process.exit(3)"', 'node -e "process.exit(0)"'].join(' && ');

beforeAll(() => {
  project = mkdtempSync(join(tmpdir(), 'npm-test-'));
  mkdirSync(join(project, 'scripts'));
  for (const file of ['test.mjs', 'ensure-chromium.mjs', 'ensure-webkit.mjs', 'debian-packages.mjs']) copyFileSync(join(REPO_ROOT, 'scripts', file), join(project, 'scripts', file));
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
