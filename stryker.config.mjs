// @ts-check
/**
 * `npm run test:mutation`: StrykerJS over the modules that guard security and
 * correctness. Not part of `npm test` or CI: a full run takes far
 * longer than a submission's tests. Incremental: a rerun tests only mutants
 * whose code or tests changed (reports/stryker-incremental.json).
 * @type {import('@stryker-mutator/api/core').PartialStrykerOptions}
 */
export default {
  testRunner: 'vitest',
  // Only the tests of the modules in scope, quick ones first (see the file).
  vitest: { configFile: 'vitest.mutation.config.ts' },
  mutate: [
    'server/auth/**/*.ts',
    'server/appointments/booking.service.ts',
    'server/appointments/idempotency.store.ts',
    'bff/booking/**/*.ts',
    'bff/content/sanitize.ts',
    'bff/content/parse-upstream.ts',
    'bff/upstream/token-manager.ts',
    'contract/rules/**/*.ts',
  ],
  coverageAnalysis: 'perTest',
  // Static mutants (module-level constants such as regexes, and code the tests' beforeAll
  // hooks run) are tested, not ignored: they run every related test, stopping at the first
  // failure, which the quick unit tests of contract/ reach first (vitest.mutation.config.ts).
  ignoreStatic: false,
  concurrency: 2,
  incremental: true,
  incrementalFile: 'reports/stryker-incremental.json',
  reporters: ['clear-text', 'progress', 'html', 'json'],
  htmlReporter: { fileName: 'reports/mutation/index.html' },
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  tempDirName: 'reports/.stryker-tmp',
  thresholds: { high: 90, low: 85, break: 85 },
  timeoutMS: 30_000,
};
