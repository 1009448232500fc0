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
  },
});
