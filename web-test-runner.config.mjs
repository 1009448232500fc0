// Browser tests of the widget in the real Chromium from Debian's `chromium`
// package (CHROME_PATH or /usr/bin/chromium); nothing downloads a browser.
import { mkdirSync, writeFileSync } from 'node:fs';
import { esbuildPlugin } from '@web/dev-server-esbuild';
import { chromeLauncher } from '@web/test-runner-chrome';
import { defaultReporter, summaryReporter } from '@web/test-runner';
import { forcedColorsPlugin } from './scripts/wtr/forced-colors-plugin.mjs';

/** Writes test-results/wtr.json with pass/fail counts for `npm test`'s summary line. */
function countingReporter() {
  const count = (suite, totals) => {
    for (const test of suite.tests ?? []) {
      if (test.skipped) continue;
      if (test.passed) totals.passed += 1;
      else totals.failed += 1;
    }
    for (const child of suite.suites ?? []) count(child, totals);
    return totals;
  };
  return {
    onTestRunFinished({ sessions }) {
      const totals = { passed: 0, failed: 0 };
      for (const session of sessions) {
        if (session.testResults) count(session.testResults, totals);
        // A file that fails to load or throws outside a test has no test to blame.
        if (!session.passed && (session.errors?.length ?? 0) > 0) totals.failed += 1;
      }
      mkdirSync('test-results', { recursive: true });
      writeFileSync('test-results/wtr.json', JSON.stringify(totals));
    },
  };
}

export default {
  files: 'test/widget/**/*.test.ts',
  nodeResolve: { exportConditions: ['production'] },
  concurrency: 1,
  browserStartTimeout: 60_000,
  testsFinishTimeout: 300_000,
  testFramework: { config: { timeout: 10_000 } },
  plugins: [esbuildPlugin({ ts: true, tsconfig: 'widget/tsconfig.json', target: 'es2022' }), forcedColorsPlugin()],
  browsers: [
    chromeLauncher({
      launchOptions: {
        executablePath: process.env.CHROME_PATH || '/usr/bin/chromium',
        headless: true,
        args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
      },
    }),
  ],
  reporters: [defaultReporter(), summaryReporter({ flatten: false }), countingReporter()],
};
