import { afterAll, onTestFinished, TestRunner } from 'vitest';

/**
 * Closes what a test helper started when the scope that started it ends:
 * inside a test, once that test finishes; at a file's or a describe's top
 * level (`const stack = await startStack()`, collected before any test
 * runs), after its last test. So no test file writes an afterAll to stop
 * its servers. Started inside a beforeAll hook, where vitest takes no new
 * hooks, the caller still closes it; `close` may be called twice. Outside
 * a vitest run (`npm run screenshots` starts the same stack) it does
 * nothing: the caller closes what it started.
 */
export function closeWhenScopeEnds(close: () => Promise<void>): void {
  if (!process.env.VITEST) return;
  if (TestRunner.getCurrentTest()) {
    onTestFinished(close);
    return;
  }
  // While files are collected their result is not set yet; once they run, a new afterAll would be lost.
  const collecting = (TestRunner.getCurrentSuite() as { file?: { result?: unknown } }).file?.result === undefined;
  if (collecting) afterAll(close);
}

/** `close`, made safe to call more than once: every call after the first waits for the first. */
export function once(close: () => Promise<void>): () => Promise<void> {
  let closing: Promise<void> | undefined;
  return () => (closing ??= close());
}
