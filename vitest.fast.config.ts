import { defineConfig } from 'vitest/config';
import { fastTestFiles } from './test/support/fast-lane.js';

/**
 * `npm run test:fast`: the unit and contract tests, every file that starts no
 * server, browser, PostgreSQL or Redis (the rule is in test/support/fast-lane.ts),
 * in under a minute. They run in the sqlite project of `npm test` too.
 */
export default defineConfig({
  test: {
    name: 'fast',
    include: fastTestFiles(['test/contract', 'test/docs', 'test/platform', 'test/server', 'test/bff']),
    pool: 'threads',
    // One module graph per worker, not per file: most of this lane's time was each file importing the same
    // modules again (8.8 s against 3.3 s for its 39 files on 2 cores, 2026-11-28). These files start nothing
    // and restore what they stub; the sqlite project of `npm test` runs each of them isolated as well.
    isolate: false,
  },
});
