// `npm test`: runs every check and test runner in turn and ends with one line,
// `tests: N passed, N failed`, summing them all. A runner that crashes before
// reporting counts as one failure, so a broken runner can never look green.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';

mkdirSync('test-results', { recursive: true });

/** Each step: how to run it and how to read its counts afterwards. */
const steps = [
  {
    name: 'check (tsc --noEmit + eslint)',
    command: ['npm', 'run', '--silent', 'check'],
    counts: (ok) => (ok ? { passed: 0, failed: 0 } : { passed: 0, failed: 1 }),
  },
  {
    name: 'vitest (server and BFF over HTTP)',
    command: ['npx', 'vitest', 'run', '--reporter=default', '--reporter=json', '--outputFile=test-results/vitest.json'],
    before: () => rmSync('test-results/vitest.json', { force: true }),
    counts: () => {
      const report = JSON.parse(readFileSync('test-results/vitest.json', 'utf8'));
      // A file that fails to load has no failed test but fails its suite: count it too.
      const failedSuitesWithoutTests = report.testResults.filter(
        (file) => file.status === 'failed' && !file.assertionResults.some((test) => test.status === 'failed'),
      ).length;
      return { passed: report.numPassedTests, failed: report.numFailedTests + failedSuitesWithoutTests };
    },
  },
];

let passed = 0;
let failed = 0;
for (const step of steps) {
  console.log(`\n== ${step.name}`);
  step.before?.();
  const [command, ...args] = step.command;
  const run = spawnSync(command, args, { stdio: 'inherit' });
  let counts;
  try {
    counts = step.counts(run.status === 0);
  } catch {
    counts = { passed: 0, failed: 1 };
  }
  if (run.status !== 0 && counts.failed === 0) counts.failed = 1;
  passed += counts.passed;
  failed += counts.failed;
  console.log(`== ${step.name}: ${counts.passed} passed, ${counts.failed} failed`);
}

console.log(`tests: ${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
