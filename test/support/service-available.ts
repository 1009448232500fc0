import { inject } from 'vitest';
import type { ServiceName, ServicesToRun } from './services.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Which services' suites run in this run, as vitest.config.ts decided (test/support/services.ts). */
    services: ServicesToRun;
  }
}

/**
 * In a test file: whether the suites that need `name` run in this run (the
 * service was reachable when the run started, or REQUIRE_SERVICES=1 makes
 * them run and fail). Use as `describe.runIf(serviceAvailable('redis'))(…)`.
 */
export function serviceAvailable(name: ServiceName): boolean {
  return inject('services')[name];
}
