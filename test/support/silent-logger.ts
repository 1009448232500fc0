import type { Logger } from 'pino';
import { createLogger } from '../../platform/logger.js';

/**
 * A logger that writes nothing, for code under test that needs one. Made with a
 * destination of its own: without one, createLogger gives a process's stdout
 * logger, whose batching adds an exit hook and a timer each time, and a test
 * worker that made a dozen of them warned of a listener leak.
 */
export function silentLogger(): Logger {
  return createLogger('silent', { write: () => undefined });
}
