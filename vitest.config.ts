import { availableParallelism } from 'node:os';
import { configDefaults, defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';
import { probeServices } from './test/support/services.js';

// Once per run: one line if a service is down, whose suites then skip (test/support/services.ts).
const services = await probeServices();

/** What every project shares: each file starts its own servers on ephemeral ports with their own database. */
const shared = {
  pool: 'forks',
  // One process per project reads the server, the BFF and their libraries once, instead of once per file:
  // importing them cost about 4.5 s of each file's 6 to 9 s on 2 cores (test/bff/http: 132 s isolated, 44 s
  // not). What a file starts it closes (the harness does it for the BFF's), nothing is kept at module level
  // between apps (each app makes its own caches), and spies and fake timers are restored where they are made.
  isolate: false,
  // Two files at a time even on 2 cores (vitest's default is one fewer worker than cores, so 1): most of a file's
  // time is spent waiting on the processes, servers, databases and sockets it starts, not on CPU. Each worker
  // stays with one project and imports it once (the projects run one after the other, longest files first).
  // Files never share a port, a database, a file or a Redis key prefix, so two can run side by side.
  maxWorkers: Math.max(2, availableParallelism() - 1),
  testTimeout: 20_000,
  hookTimeout: 30_000,
  provide: { services },
} satisfies TestProjectInlineConfiguration['test'];

/** Every suite, the server's on SQLite files. */
export const sqliteProject: TestProjectInlineConfiguration = {
  test: {
    ...shared,
    name: 'sqlite',
    include: ['test/contract/**/*.test.ts', 'test/docs/**/*.test.ts', 'test/server/**/*.test.ts', 'test/bff/**/*.test.ts'],
  },
};

/**
 * The server's suites again, each test server on a PostgreSQL database of its
 * own (test/server/support/test-database.ts), created and dropped by the test.
 * Not run when PostgreSQL cannot be reached (unless REQUIRE_SERVICES=1).
 */
export const postgresProject: TestProjectInlineConfiguration = {
  test: {
    ...shared,
    name: 'postgres',
    include: ['test/server/**/*.test.ts'],
    // The OpenAPI document and its page are generated from contract/ and never touch the database.
    exclude: [...configDefaults.exclude, 'test/server/docs/**'],
    env: { TEST_DATABASE: 'postgres' },
  },
};

export default defineConfig({
  test: {
    projects: services.postgres ? [sqliteProject, postgresProject] : [sqliteProject],
  },
});
