import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/contract/**/*.test.ts', 'test/server/**/*.test.ts', 'test/bff/**/*.test.ts'],
    // Each file starts its own server on an ephemeral port with its own SQLite file.
    pool: 'forks',
    testTimeout: 20_000,
    hookTimeout: 30_000,
  },
});
