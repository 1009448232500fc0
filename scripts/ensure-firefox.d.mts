// The types of ensure-firefox.mjs, for the TypeScript that starts Firefox (test/e2e/support/engine-firefox.ts,
// scripts/screenshots-other-browsers.ts): one rule for where the tests' Firefox is.

export declare function firefoxPath(env?: Record<string, string | undefined>): string;
export declare function ensureFirefox(): string;
