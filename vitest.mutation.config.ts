import { basename, dirname, join, relative } from 'node:path';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { probeServices } from './test/support/services.js';

/**
 * The tests `npm run test:mutation` (stryker.config.mjs) runs against each
 * mutant: those of the modules in its scope, not the whole suite. Every run
 * is then shorter, above all for a "static" mutant (one in a module-level
 * constant such as a regex), for which Stryker cannot tell which tests cover
 * it and runs every test related to the mutated file.
 */
const MUTATION_TESTS = [
  'test/contract/**/*.test.ts',
  'test/server/auth/**/*.test.ts',
  'test/server/appointments/**/*.test.ts',
  'test/bff/booking/**/*.test.ts',
  // The "any dentist" forwarding of bff/booking is tested where it meets the taken slots.
  'test/bff/availability/**/*.test.ts',
  'test/bff/content/sanitize*.test.ts',
  'test/bff/content/field-fallback.test.ts',
  'test/bff/content/parse-upstream.test.ts',
  'test/bff/upstream/**/*.test.ts',
];

/**
 * Stryker stops a mutant's run at its first failing test (bail), so the order
 * of the files decides how long a killed mutant takes. vitest's own order is
 * slowest first; this one puts first the tests most likely to kill the mutant
 * at hand (the mutated file is `related` while Stryker tests a mutant): those
 * whose names start with its name, then the rest of its mirror folder, then
 * the quick unit tests of contract/, then the HTTP tests, which start servers;
 * within each, the slow files last.
 */
const QUICK_FIRST = ['test/contract/', 'test/bff/content/', 'test/bff/booking/', 'test/server/', 'test/bff/availability/', 'test/bff/upstream/'];
/** Files that wait on real timers, spawn processes or hash at a high cost: last within their rank. */
const SLOW = ['booking-timeout.test.ts', 'revocation.test.ts', 'secret-hash.test.ts'];

class LikelyKillerFirstSequencer extends BaseSequencer {
  override sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const { root, related = [] } = this.ctx.config;
    const mutated = related.length === 1 ? relative(root, related[0]!) : undefined;
    const rank = (file: TestSpecification): number => {
      const test = relative(root, file.moduleId);
      if (mutated && basename(test).startsWith(basename(mutated, '.ts'))) return 0;
      if (mutated && dirname(test) === join('test', dirname(mutated))) return 1;
      const index = QUICK_FIRST.findIndex((prefix) => test.startsWith(prefix));
      return 2 + (index < 0 ? QUICK_FIRST.length : index);
    };
    const slow = (file: TestSpecification) => (SLOW.includes(basename(file.moduleId)) ? 1 : 0);
    return Promise.resolve([...files].sort((a, b) => rank(a) - rank(b) || slow(a) - slow(b) || a.moduleId.localeCompare(b.moduleId)));
  }
}

export default defineConfig({
  test: {
    include: MUTATION_TESTS,
    testTimeout: 20_000,
    hookTimeout: 30_000,
    // On SQLite only; the Redis suites run when Redis can be reached, as in `npm test`
    // (test/support/services.ts), and are skipped, with one line saying so, when it cannot.
    provide: { services: { ...(await probeServices()), postgres: false } },
    sequence: { sequencer: LikelyKillerFirstSequencer },
  },
});
