import { describe, expect, it } from 'vitest';
import { Readiness } from '../../../bff/health/readiness.js';
import { UpstreamBusy } from '../../../bff/upstream/errors.js';
import { removeDb, seedClinic, startTestServer, type TestServer } from '../../server/support/test-server.js';
import { bffClinicFixture, startBff, startStubUpstream } from '../support/bff-harness.js';
import { FakeClock } from '../../support/fake-clock.js';
import { closeWhenScopeEnds, once } from '../../support/scoped-teardown.js';

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

/**
 * The BFF on a fake clock of the test's own, before a reference server the test can stop and start
 * again on the same port and database; all of it closed when the test ends.
 */
async function bffBeforeStoppableUpstream() {
  const time = new FakeClock(Date.now());
  const first = await startTestServer();
  const clinic = await seedClinic(first, bffClinicFixture());
  const bff = await startBff(first.api, clinic, {}, time);
  let running: TestServer | undefined = first;
  closeWhenScopeEnds(
    once(async () => {
      await bff.close();
      await running?.close();
      removeDb(first.dbPath);
    }),
  );
  const readyz = async () => {
    const res = await fetch(`${bff.baseUrl}/readyz`);
    return { status: res.status, body: (await res.json()) as unknown, cacheControl: res.headers.get('cache-control') };
  };
  return {
    time,
    bff,
    readyz,
    async stopUpstream() {
      await running?.close();
      running = undefined;
    },
    async restartUpstream() {
      running = await startTestServer({ port: Number(new URL(first.baseUrl).port), dbPath: first.dbPath });
    },
  };
}

describe('GET /readyz while the upstream stops and comes back', () => {
  it('answers 200 {status: "ready"} while the upstream answers', async () => {
    const { readyz } = await bffBeforeStoppableUpstream();

    expect(await readyz()).toEqual({ status: 200, body: { status: 'ready' }, cacheControl: 'no-store' });
  });

  it('answers 503 once the upstream has stopped and nothing has answered within the window, though a token is still cached', async () => {
    const { readyz, time, stopUpstream } = await bffBeforeStoppableUpstream();
    expect((await readyz()).status).toBe(200);

    await stopUpstream();
    time.advance(WINDOW_MS + 1);

    expect(await readyz()).toEqual({ status: 503, body: { status: 'upstream unavailable' }, cacheControl: 'no-store' });
  });

  it('answers 200 again once the upstream is back on the same port, after the probe interval', async () => {
    const { readyz, time, stopUpstream, restartUpstream } = await bffBeforeStoppableUpstream();
    expect((await readyz()).status).toBe(200);
    await stopUpstream();
    time.advance(WINDOW_MS + 1);
    expect((await readyz()).status).toBe(503);

    await restartUpstream();
    time.advance(PROBE_EVERY_MS);

    expect(await readyz()).toEqual({ status: 200, body: { status: 'ready' }, cacheControl: 'no-store' });
  });

  it('keeps answering /healthz 200 throughout: the process is up', async () => {
    const { bff, readyz, time, stopUpstream } = await bffBeforeStoppableUpstream();
    await stopUpstream();
    time.advance(WINDOW_MS + 1);
    expect((await readyz()).status).toBe(503);

    const res = await fetch(`${bff.baseUrl}/healthz`);

    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ok' });
  });
});

describe('GET /readyz after ordinary BFF calls', () => {
  /** A BFF of the test's own before a stub, on a fake clock; how many readiness probes (GET /organization) reached the stub. */
  async function bffBeforeStub() {
    const time = new FakeClock(Date.now());
    const stub = await startStubUpstream();
    const bff = await startBff(stub.api, { appKey: 'ck_ready', secret: 'ready-secret-0123456789' }, {}, time);
    const probes = () => stub.requests.filter((req) => req.url === '/api/v1/organization').length;
    /** Ten /readyz at once: each answer's status and body. */
    const readyz = () =>
      Promise.all(
        Array.from({ length: 10 }, async () => {
          const res = await fetch(`${bff.baseUrl}/readyz`);
          return { status: res.status, body: (await res.json()) as unknown };
        }),
      );
    return { time, bff, probes, readyz };
  }

  it('counts an upstream answer to an ordinary call as the upstream answering: no probe within the window', async () => {
    const { time, bff, probes, readyz } = await bffBeforeStub();
    expect((await fetch(`${bff.api}/treatments`)).status).toBe(200);
    time.advance(WINDOW_MS);

    const answers = await readyz();

    expect(answers).toEqual(Array(10).fill({ status: 200, body: { status: 'ready' } }));
    expect(probes()).toBe(0);
  });

  it('probes the upstream once for many concurrent /readyz past the window', async () => {
    const { time, bff, probes, readyz } = await bffBeforeStub();
    expect((await fetch(`${bff.api}/treatments`)).status).toBe(200);
    time.advance(WINDOW_MS + 1);

    const answers = await readyz();

    expect(answers).toEqual(Array(10).fill({ status: 200, body: { status: 'ready' } }));
    expect(probes()).toBe(1);
  });
});
