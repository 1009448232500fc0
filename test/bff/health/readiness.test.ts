import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Readiness } from '../../../bff/health/readiness.js';
import { UpstreamBusy } from '../../../bff/upstream/errors.js';
import { removeDb, startTestServer, type TestServer } from '../../server/support/test-server.js';
import { startBff, startStack, startStubUpstream, type Stack } from '../support/bff-harness.js';
import { FakeClock } from '../../support/fake-clock.js';

const WINDOW_MS = 30_000;
const PROBE_EVERY_MS = 5_000;

/** A probe whose outcome the test sets, counting its calls; each call settles when the test says so. */
function controllableProbe() {
  const probe = {
    calls: 0,
    fails: false,
    pending: [] as (() => void)[],
    run: () => {
      probe.calls += 1;
      const fails = probe.fails;
      return new Promise<void>((resolve, reject) => probe.pending.push(() => (fails ? reject(new Error('down')) : resolve())));
    },
    settleAll: () => probe.pending.splice(0).forEach((settle) => settle()),
  };
  return probe;
}

/** Checks readiness, settling whatever probe the check starts. */
async function check(readiness: Readiness, probe: ReturnType<typeof controllableProbe>): Promise<boolean> {
  const ready = readiness.isReady();
  await Promise.resolve();
  probe.settleAll();
  return ready;
}

describe('Readiness', () => {
  it('is ready when the probe finds upstream busy (429): it answered, only the rate of the key is spent', async () => {
    const time = new FakeClock(Date.now());
    const readiness = new Readiness({ probe: () => Promise.reject(new UpstreamBusy(30)), clock: time, windowMs: WINDOW_MS, probeEveryMs: PROBE_EVERY_MS });

    expect(await readiness.isReady()).toBe(true);
  });

  it('is ready without probing while upstream has answered within the window', async () => {
    const time = new FakeClock(Date.now());
    const probe = controllableProbe();
    const readiness = new Readiness({ probe: probe.run, clock: time, windowMs: WINDOW_MS, probeEveryMs: PROBE_EVERY_MS });
    readiness.answered();
    time.advance(WINDOW_MS);

    expect(await check(readiness, probe)).toBe(true);
    expect(probe.calls).toBe(0);
  });

  it('probes once nothing has answered within the window, and is ready when the probe succeeds', async () => {
    const time = new FakeClock(Date.now());
    const probe = controllableProbe();
    const readiness = new Readiness({ probe: probe.run, clock: time, windowMs: WINDOW_MS, probeEveryMs: PROBE_EVERY_MS });
    readiness.answered();
    time.advance(WINDOW_MS + 1);

    expect(await check(readiness, probe)).toBe(true);
    expect(probe.calls).toBe(1);
  });

  it('is not ready when nothing has answered within the window and a fresh probe fails', async () => {
    const time = new FakeClock(Date.now());
    const probe = controllableProbe();
    probe.fails = true;
    const readiness = new Readiness({ probe: probe.run, clock: time, windowMs: WINDOW_MS, probeEveryMs: PROBE_EVERY_MS });

    expect(await check(readiness, probe)).toBe(false);
    expect(probe.calls).toBe(1);
  });

  it('shares one probe among concurrent checks', async () => {
    const time = new FakeClock(Date.now());
    const probe = controllableProbe();
    const readiness = new Readiness({ probe: probe.run, clock: time, windowMs: WINDOW_MS, probeEveryMs: PROBE_EVERY_MS });

    const checks = Array.from({ length: 20 }, () => readiness.isReady());
    await Promise.resolve();
    probe.settleAll();

    expect(await Promise.all(checks)).toEqual(Array.from({ length: 20 }, () => true));
    expect(probe.calls).toBe(1);
  });

  it('keeps a failed probe\'s answer for probeEveryMs, then probes again', async () => {
    const time = new FakeClock(Date.now());
    const probe = controllableProbe();
    probe.fails = true;
    const readiness = new Readiness({ probe: probe.run, clock: time, windowMs: WINDOW_MS, probeEveryMs: PROBE_EVERY_MS });
    expect(await check(readiness, probe)).toBe(false);
    probe.fails = false;

    time.advance(PROBE_EVERY_MS - 1);
    const cached = await check(readiness, probe);
    time.advance(1);
    const reprobed = await check(readiness, probe);

    expect(cached).toBe(false);
    expect(reprobed).toBe(true);
    expect(probe.calls).toBe(2);
  });

  it('is ready at once when an ordinary call answers after a failed probe', async () => {
    const time = new FakeClock(Date.now());
    const probe = controllableProbe();
    probe.fails = true;
    const readiness = new Readiness({ probe: probe.run, clock: time, windowMs: WINDOW_MS, probeEveryMs: PROBE_EVERY_MS });
    expect(await check(readiness, probe)).toBe(false);

    readiness.answered();

    expect(await check(readiness, probe)).toBe(true);
    expect(probe.calls).toBe(1);
  });
});

describe('GET /readyz while the upstream stops and comes back', () => {
  const time = new FakeClock(Date.now());
  let stack: Stack;
  let restarted: TestServer | undefined;
  let upstreamRunning = true;

  beforeAll(async () => {
    stack = await startStack({ clock: time });
  });
  afterAll(async () => {
    await stack.bff.close();
    if (upstreamRunning) await stack.upstream.close();
    await restarted?.close();
    removeDb(stack.upstream.dbPath);
  });

  const readyz = async () => {
    const res = await fetch(`${stack.bff.baseUrl}/readyz`);
    return { status: res.status, body: (await res.json()) as unknown, cacheControl: res.headers.get('cache-control') };
  };

  it('answers 200 {status: "ready"} while the upstream answers', async () => {
    expect(await readyz()).toEqual({ status: 200, body: { status: 'ready' }, cacheControl: 'no-store' });
  });

  it('answers 503 once the upstream has stopped and nothing has answered within the window, though a token is still cached', async () => {
    await stack.upstream.close();
    upstreamRunning = false;
    time.advance(WINDOW_MS + 1);

    expect(await readyz()).toEqual({ status: 503, body: { status: 'upstream unavailable' }, cacheControl: 'no-store' });
  });

  it('answers 200 again once the upstream is back on the same port, after the probe interval', async () => {
    restarted = await startTestServer({ port: Number(new URL(stack.upstream.baseUrl).port), dbPath: stack.upstream.dbPath });
    time.advance(PROBE_EVERY_MS);

    expect(await readyz()).toEqual({ status: 200, body: { status: 'ready' }, cacheControl: 'no-store' });
  });

  it('keeps answering /healthz 200 throughout: the process is up', async () => {
    expect((await fetch(`${stack.bff.baseUrl}/healthz`)).status).toBe(200);
  });
});

describe('GET /readyz after ordinary BFF calls', async () => {
  const time = new FakeClock(Date.now());
  const probes = () => stub.requests.filter((req) => req.url === '/api/v1/organization').length;

  const stub = await startStubUpstream();
  const bff = await startBff(stub.api, { appKey: 'ck_ready', secret: 'ready-secret-0123456789' }, {}, time);

  it('counts an upstream answer to an ordinary call as the upstream answering: no probe within the window', async () => {
    expect((await fetch(`${bff.api}/treatments`)).status).toBe(200);
    time.advance(WINDOW_MS);

    const statuses = await Promise.all(Array.from({ length: 10 }, async () => (await fetch(`${bff.baseUrl}/readyz`)).status));

    expect(statuses.every((status) => status === 200)).toBe(true);
    expect(probes()).toBe(0);
  });

  it('probes the upstream once for many concurrent /readyz past the window', async () => {
    time.advance(1);

    const statuses = await Promise.all(Array.from({ length: 10 }, async () => (await fetch(`${bff.baseUrl}/readyz`)).status));

    expect(statuses.every((status) => status === 200)).toBe(true);
    expect(probes()).toBe(1);
  });
});
