import { describe, expect, it } from 'vitest';
import { ConcurrencyGate } from '../../../bff/upstream/concurrency-gate.js';
import { TokenManager } from '../../../bff/upstream/token-manager.js';
import { defaultStub, startBff, startStubUpstream, type StubHandler } from '../support/bff-harness.js';
import { HeldCalls } from '../support/held-calls.js';
import { eventually } from '../../support/eventually.js';

/**
 * Answers like defaultStub once the test lets each call go on: token
 * exchanges under the key `exchange`, other calls under `read`.
 */
function heldUpstream() {
  const calls = new HeldCalls();
  const paths = new Set<string>();
  const handler: StubHandler = async (req, res) => {
    const key = req.url === '/api/v1/granttoken' ? 'exchange' : 'read';
    if (key === 'read') paths.add(req.url);
    const answered = await calls.hold(key);
    await defaultStub(req, res);
    answered();
  };
  return { calls, paths, handler };
}

describe('upstream concurrency gates', () => {
  it('a BFF never has more than UPSTREAM_MAX_IN_FLIGHT_PER_SITE requests at upstream, however many cold requests come', async () => {
    const { calls, paths: seen, handler } = heldUpstream();
    calls.release('exchange');
    const stub = await startStubUpstream(handler);
    const bff = await startBff(stub.api, { appKey: 'ck_gate_key', secret: 'gate-secret-0123456789' }, { upstreamMaxInFlightPerSite: 2 });

    const paths = ['/organization', '/website', '/treatments', '/dentists'];
    const answered = Promise.all(
      Array.from({ length: 80 }, async (_, index) => {
        const res = await fetch(`${bff.api}${paths[index % paths.length]}`);
        await res.arrayBuffer();
      }),
    );
    // Held at upstream, the four reads (one per path: the rest share them) fill the gate two at a time: let one go
    // each time two are there (the last alone), and a third never arrives while two are held.
    await calls.letThroughAtLimit('read', 4, 2);
    calls.release('read');
    await answered;

    expect([...seen].sort()).toEqual(paths.map((path) => `/api/v1${path}`).sort());
    expect(calls.most('read')).toBe(2);
    expect(stub.requests.filter((req) => req.url === '/api/v1/granttoken')).toHaveLength(1);
  });

  it('token managers of many sites sharing one exchange gate never have more than its limit of exchanges in flight', async () => {
    const { calls, handler } = heldUpstream();
    const stub = await startStubUpstream(handler);
    const exchangeGate = new ConcurrencyGate(3);
    const managers = Array.from(
      { length: 40 },
      (_, site) =>
        new TokenManager({
          upstreamUrl: stub.api,
          appKey: `ck_site_${site}`,
          appSecretKey: `secret-of-site-${site}`,
          timeoutMs: 2000,
          maxBodyBytes: 64 * 1024,
          exchangeGate,
        }),
    );

    // Each site asked twice at once: still one exchange per site (single flight), never more than 3 at a time.
    const tokens = Promise.all(managers.flatMap((manager) => [manager.get(), manager.get()]));
    // Held at upstream, three exchanges fill the gate and the other 37 sites wait for a place in it.
    await eventually(() => expect([calls.held('exchange'), exchangeGate.waiting]).toEqual([3, 37]));
    calls.release('exchange');

    expect(await tokens).toHaveLength(80);
    expect(stub.requests.filter((req) => req.url === '/api/v1/granttoken')).toHaveLength(40);
    expect(calls.most('exchange')).toBe(3);
    expect(exchangeGate.inFlight).toBe(0);
  });

  it('reads both limits from the environment, 8 by default', async () => {
    const { parseBffConfig } = await import('../../../bff/config.js');
    const base = { UPSTREAM_URL: 'http://127.0.0.1:1/api/v1', APP_KEY: 'k', APP_SECRET_KEY: 's', BOOKING_REF_SECRET: 'x'.repeat(32) };
    expect(parseBffConfig(base)).toMatchObject({ upstreamMaxInFlightPerSite: 8, tokenExchangesMaxInFlight: 8 });
    expect(parseBffConfig({ ...base, UPSTREAM_MAX_IN_FLIGHT_PER_SITE: '3', TOKEN_EXCHANGES_MAX_IN_FLIGHT: '2' })).toMatchObject({
      upstreamMaxInFlightPerSite: 3,
      tokenExchangesMaxInFlight: 2,
    });
    expect(() => parseBffConfig({ ...base, UPSTREAM_MAX_IN_FLIGHT_PER_SITE: '0' })).toThrow(/UPSTREAM_MAX_IN_FLIGHT_PER_SITE/);
  });
});
