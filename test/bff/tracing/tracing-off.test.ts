import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeSqliteFolder, tempDbPath } from '../../server/support/test-database.js';
import { seedDatabase, type SeededKeys } from '../../server/support/seed-database.js';
import { startService, type ServiceProcess } from './support/service-processes.js';

/**
 * Without OTEL_EXPORTER_OTLP_ENDPOINT neither service imports the SDK: the
 * modules of @opentelemetry/ each process resolves are recorded by a resolve
 * hook (support/record-imports.mjs) while it starts and answers a request
 * that passes every chokepoint (an upstream call, queries).
 */
describe('both services without OTEL_EXPORTER_OTLP_ENDPOINT', () => {
  let dbPath: string;
  let keys: SeededKeys;
  let server: ServiceProcess | undefined;
  let bff: ServiceProcess | undefined;
  let imports: string;

  beforeAll(async () => {
    dbPath = tempDbPath();
    keys = await seedDatabase(`file:${dbPath}`);
    const recorded = join(dbPath, '..', 'imports.txt');
    // Other OTEL_* variables set: they alone turn nothing on.
    const otel = { OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/json', OTEL_SERVICE_NAME: 'not-traced' };
    server = await startService('server/main.ts', { ...otel, DATABASE_URL: `file:${dbPath}` }, recorded);
    bff = await startService('bff/main.ts', {
      ...otel,
      UPSTREAM_URL: `${server.baseUrl}/api/v1`,
      APP_KEY: keys.app_key,
      APP_SECRET_KEY: keys.app_secret_key,
      BOOKING_REF_SECRET: 'tracing-off-booking-reference-secret-0123456789',
    }, recorded);
    expect((await fetch(`${bff.baseUrl}/api/content`)).status).toBe(200);
    expect(await bff.stop()).toBe(0);
    expect(await server.stop()).toBe(0);
    imports = existsSync(recorded) ? readFileSync(recorded, 'utf8') : '';
    // Two services started through tsx and stopped: slow on a busy machine.
  }, 120_000);

  afterAll(async () => {
    await bff?.stop();
    await server?.stop();
    if (dbPath) removeSqliteFolder(dbPath);
  });

  it('load @opentelemetry/api, which without an SDK does nothing', () => {
    expect(imports).toContain('/@opentelemetry/api/');
  });

  it('never import @opentelemetry/sdk-node or any other part of the SDK', () => {
    const sdk = imports.split('\n').filter((url) => url && !url.includes('/@opentelemetry/api/'));
    expect(sdk).toEqual([]);
  });
});
