import { vi } from 'vitest';

/** How long `eventually` retries by default: it bounds a failing test only, so it is far above any passing one. */
export const EVENTUALLY_MS = 10_000;

/**
 * Retries `check` (an assertion, synchronous or not) until it passes, and
 * returns what it returned; past `timeoutMs` it fails with the check's last
 * error. For what follows an event a test cannot await: a log line written
 * once an answer has finished, a background refresh landing, a watcher's
 * next look. The bound only ends a test that fails, so a busy machine never
 * turns a pass into a failure; never a fixed wait.
 */
export function eventually<T>(check: () => T | Promise<T>, { timeoutMs = EVENTUALLY_MS, intervalMs = 20 } = {}): Promise<T> {
  return vi.waitFor(check, { timeout: timeoutMs, interval: intervalMs });
}
