import { afterAll, beforeAll } from 'vitest';
import { clinicFixture } from './clinic-fixture.js';
import {
  authenticatedCaller,
  removeDb,
  seedClinic,
  startTestServer,
  type Caller,
  type SeededClinic,
  type TestServer,
  type TestServerOptions,
} from './test-server.js';
import type { ClinicFile } from '../../../server/clinics/clinic-file.js';

export interface UseTestServerOptions<T extends object> extends TestServerOptions {
  /** Runs once the server listens, before the first test (seed clinics, grant tokens); what it answers joins the handle. */
  setup?: (server: TestServer) => Promise<T>;
}

/** The started server and whatever `setup` answered; filled in by beforeAll. */
export type TestServerHandle<T extends object> = { readonly server: TestServer } & T;

/**
 * A fresh server for the enclosing describe block (or the whole file): started
 * in beforeAll, then closed and its database removed in afterAll: its SQLite
 * folder (also for a `dbPath` the caller chose, so give it a folder of its
 * own), or with TEST_DATABASE=postgres its PostgreSQL database, dropped by close().
 *
 * Read the handle's fields inside tests and hooks: they exist once beforeAll
 * has run, and reading one earlier (while tests are being collected) throws.
 */
export function useTestServer<T extends object = Record<never, never>>(
  options: UseTestServerOptions<T> = {},
): TestServerHandle<T> {
  const { setup, ...serverOptions } = options;
  const fields: Record<string | symbol, unknown> = {};
  let server: TestServer | undefined;

  beforeAll(async () => {
    server = await startTestServer(serverOptions);
    fields.server = server;
    if (setup) Object.assign(fields, await setup(server));
  });
  afterAll(async () => {
    if (!server) return;
    try {
      await server.close();
    } finally {
      removeDb(server.dbPath);
    }
  });

  return new Proxy(fields, {
    get(target, key) {
      if (!server) throw new Error(`useTestServer: "${String(key)}" was read before beforeAll started the server`);
      return target[key];
    },
  }) as TestServerHandle<T>;
}

export interface TwoClinics {
  /** The fixture clinic, seeded first (so its treatments have the ids 1, 2 and 3). */
  clinic: SeededClinic;
  caller: Caller;
  otherClinic: SeededClinic;
  otherCaller: Caller;
}

/** A `setup` that seeds the fixture clinic, then another (Other Dental unless given), and grants each a caller. */
export function twoClinics(otherFile: ClinicFile = clinicFixture('Other Dental')): (server: TestServer) => Promise<TwoClinics> {
  return async (server) => {
    const clinic = await seedClinic(server);
    const otherClinic = await seedClinic(server, otherFile);
    return {
      clinic,
      caller: await authenticatedCaller(server, clinic),
      otherClinic,
      otherCaller: await authenticatedCaller(server, otherClinic),
    };
  };
}
