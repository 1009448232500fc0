import { spawn } from 'node:child_process';
import { createServer, type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { entryPointArgs } from '../../support/entry-point.js';
import { loadServerConfig } from '../../../server/config.js';
import { REPO_ROOT, startServerProcess, type ServerProcess } from '../support/server-process.js';
import { seedDatabase } from '../support/seed-database.js';
import { createTestDatabase, type TestDatabase } from '../support/test-database.js';
import { eventually } from '../../support/eventually.js';

describe('METRICS_PORT', () => {
  it('is off unless set, and binds to 127.0.0.1 unless METRICS_HOST says otherwise', () => {
    expect(loadServerConfig({}).metrics).toBeUndefined();
    expect(loadServerConfig({ METRICS_PORT: '9464' }).metrics).toEqual({ port: 9464, host: '127.0.0.1' });
    expect(loadServerConfig({ METRICS_PORT: '9464', METRICS_HOST: '10.0.0.5' }).metrics).toEqual({ port: 9464, host: '10.0.0.5' });
    expect(() => loadServerConfig({ METRICS_PORT: 'many' })).toThrow(/METRICS_PORT/);
  });
});

describe('the server process with METRICS_PORT', () => {
  let database: TestDatabase;
  let server: ServerProcess | undefined;

  beforeAll(async () => {
    database = await createTestDatabase();
    await seedDatabase(database.url);
  });
  afterAll(async () => {
    server?.child.kill('SIGTERM');
    await server?.exited;
    await database?.remove();
  });

  it('serves its metrics on a listener of their own, and not on the API port', { timeout: 60_000 }, async () => {
    server = await startServerProcess({ DATABASE_URL: database.url, METRICS_PORT: '0' });
    const metricsUrl = await waitFor(() => /metrics on (http:\/\/127\.0\.0\.1:\d+\/metrics)/.exec(server!.output())?.[1]);
    expect((await fetch(new URL('/healthz', server.api))).status).toBe(200);
    const scrape = await fetch(metricsUrl);
    expect(scrape.status).toBe(200);
    const text = await scrape.text();
    expect(text).toContain('process_resident_memory_bytes');
    expect(text).toContain('http_request_duration_seconds_count{method="GET",route="/healthz",status="200"} 1');
    expect((await fetch(new URL('/metrics', server.api))).status).toBe(404);
  });
});

describe('the server process with METRICS_PORT taken', () => {
  let database: TestDatabase;
  const holder = createServer();
  let metricsPort: number;

  beforeAll(async () => {
    database = await createTestDatabase();
    await seedDatabase(database.url);
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    metricsPort = (holder.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await new Promise((resolve) => holder.close(resolve));
    await database?.remove();
  });

  it('fails to start with one line naming METRICS_PORT, before its API port ever listens', { timeout: 60_000 }, async () => {
    const child = spawn(process.execPath, entryPointArgs('server/main.ts'), {
      cwd: REPO_ROOT,
      env: { ...process.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', DATABASE_URL: database.url, METRICS_PORT: String(metricsPort) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));

    expect(code).toBe(1);
    expect(stderr.trim().split('\n')).toEqual([`clinic API could not start: metrics port ${metricsPort} (METRICS_PORT) is already in use`]);
    // A supervisor that polled its health in between would have taken it for started.
    expect(stdout).not.toContain('listening on');
  });
});

/** What `read` finds once it finds something (a log line written a moment after start-up). */
function waitFor<T>(read: () => T | undefined): Promise<T> {
  return eventually(() => {
    const found = read();
    if (found === undefined) throw new Error('not found yet');
    return found;
  });
}
