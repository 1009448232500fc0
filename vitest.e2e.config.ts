import { defineConfig } from 'vitest/config';

/** End-to-end tests: the built stack (server + BFF + widget) driven by playwright-core in Chromium, puppeteer-core in Firefox and WebDriver in WebKit. */
export default defineConfig({
  test: {
    include: ['test/e2e/**/*.test.ts', 'test/wordpress/**/*.test.ts'],
    pool: 'forks',
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
