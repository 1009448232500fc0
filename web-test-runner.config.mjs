// Browser tests of the widget in Chromium, Firefox and WebKit as Debian ships them (scripts/wtr/engines.mjs):
// chromium (CHROME_PATH), firefox-esr (FIREFOX_PATH), and WebKitGTK by WebKitWebDriver in Xvfb. Nothing
// downloads a browser. BROWSERS=firefox (or chromium,webkit) runs some of them.
import { mkdirSync, writeFileSync } from 'node:fs';
import { esbuildPlugin } from '@web/dev-server-esbuild';
import { defaultReporter, summaryReporter } from '@web/test-runner';
import { engineLaunchers } from './scripts/wtr/engines.mjs';
import { forcedColorsPlugin } from './scripts/wtr/forced-colors-plugin.mjs';
import { viewportPlugin } from './scripts/wtr/viewport-plugin.mjs';

/** Writes test-results/wtr.json with pass/fail counts for `npm test`'s summary line: every engine's tests. */
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
  // The three engines side by side, one file each at a time: a file mostly waits (on the widget, the fake BFF), so
  // on 2 cores three at once took 176 s where two at a time (the default) took 220 s.
  concurrentBrowsers: 3,
  browserStartTimeout: 60_000,
  testsFinishTimeout: 300_000,
  testFramework: { config: { timeout: 10_000 } },
  plugins: [esbuildPlugin({ ts: true, tsconfig: 'widget/tsconfig.json', target: 'es2022' }), forcedColorsPlugin(), viewportPlugin()],
  browsers: engineLaunchers(),
  reporters: [defaultReporter(), summaryReporter({ flatten: false }), countingReporter()],
};
