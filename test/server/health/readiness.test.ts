import { describe, expect, it, onTestFinished } from 'vitest';
import { DatabaseReadiness } from '../../../server/health/database-readiness.js';
import { TEST_ENGINE } from '../support/test-database.js';
import { removeDb, startTestServer } from '../support/test-server.js';

/** A probe the test settles by hand, counting its calls. */
function manualProbe() {
  const probe = {
    calls: 0,
    pending: [] as ((outcome: 'answers' | 'fails') => void)[],
    run: () => {
      probe.calls++;
      return new Promise<void>((resolve, reject) => probe.pending.push((outcome) => (outcome === 'fails' ? reject(new Error('down')) : resolve())));
    },
    /** Settles every probe still running, and lets the readiness see it. */
    async settle(outcome: 'answers' | 'fails') {
      probe.pending.splice(0).forEach((settle) => settle(outcome));
      await new Promise((resolve) => setImmediate(resolve));
    },
  };
  return probe;
}

describe('DatabaseReadiness', () => {
  it('runs one probe for checks that arrive while it runs, and answers each what it found', async () => {
    const probe = manualProbe();
    const readiness = new DatabaseReadiness(probe.run, 60_000);

    const checks = Array.from({ length: 5 }, () => readiness.isReady());
    await probe.settle('fails');

    expect(await Promise.all(checks)).toEqual([false, false, false, false, false]);
    expect(probe.calls).toBe(1);
  });

  it('is not ready when the probe gives no answer in time, and starts no second probe while it hangs', async () => {
    const probe = manualProbe();
    const readiness = new DatabaseReadiness(probe.run, 5);

    expect(await readiness.isReady()).toBe(false);
    expect(await readiness.isReady()).toBe(false);
    expect(probe.calls).toBe(1);

    await probe.settle('fails');
    const next = readiness.isReady();
    await probe.settle('answers');
    expect(await next).toBe(true);
    expect(probe.calls).toBe(2);
  });
});

describe(`GET /readyz and /healthz on ${TEST_ENGINE}`, () => {
  /** A server of the test's own: one test takes its database away. */
  async function ownServer() {
    const server = await startTestServer();
    onTestFinished(async () => {
      await server.close().catch(() => undefined);
      removeDb(server.dbPath);
    });
    return server;
  }

  it('answers /readyz 200 {status: "ready"}, uncached and without credentials, while the database answers', async () => {
    const server = await ownServer();

    const res = await fetch(`${server.baseUrl}/readyz`);

    expect(res.status).toBe(200);
    expect(await res.json()).toStrictEqual({ status: 'ready' });
    expect(res.headers.get('cache-control')).toBe('no-store');
  });

  it('answers /readyz 503 database_unavailable in the error body once the database cannot answer, and /healthz 200 still', async () => {
    const server = await ownServer();
    // Answering first: Kysely's destroy() is a no-op on a pool that never opened (a fresh server on PostgreSQL).
    expect((await fetch(`${server.baseUrl}/readyz`)).status).toBe(200);
    await server.db.destroy();

    const res = await fetch(`${server.baseUrl}/readyz`);

    expect(res.status).toBe(503);
    expect(await res.json()).toStrictEqual({ success: false, message: 'The database cannot be reached', error_code: 'database_unavailable' });
    const health = await fetch(`${server.baseUrl}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toStrictEqual({ status: 'ok' });
    // A poller asks every few seconds: its answer is a warning, never an error with a stack.
    const line = server.logs.map((text) => JSON.parse(text) as { level: number; req?: { path: string }; err?: unknown }).find((l) => l.req?.path === '/readyz' && l.level >= 40);
    expect(line).toMatchObject({ level: 40 });
    expect(line?.err).toBeUndefined();
  });
});
