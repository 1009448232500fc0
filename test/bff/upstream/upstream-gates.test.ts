import { describe, expect, it } from 'vitest';
import { ConcurrencyGate } from '../../../bff/upstream/concurrency-gate.js';
import { TokenManager } from '../../../bff/upstream/token-manager.js';
import { defaultStub, startBff, startStubUpstream, type StubHandler } from '../support/bff-harness.js';

/**
 * Answers like defaultStub after `delayMs`, counting what is in flight at
 * once: token exchanges and other calls apart.
 */
function countingUpstream(delayMs: number) {
  const counts = { exchanges: 0, mostExchanges: 0, calls: 0, mostCalls: 0, paths: new Set<string>() };
  const handler: StubHandler = async (req, res) => {
    const exchange = req.url === '/api/v1/granttoken';
    if (exchange) counts.mostExchanges = Math.max(counts.mostExchanges, ++counts.exchanges);
    else {
      counts.paths.add(req.url);
      counts.mostCalls = Math.max(counts.mostCalls, ++counts.calls);
    }
    await new Promise((resolve) => setTimeout(resolve, delayMs));
    if (exchange) counts.exchanges -= 1;
    else counts.calls -= 1;
    void defaultStub(req, res);
  };
  return { counts, handler };
}

describe('upstream concurrency gates', () => {
  it('a BFF never has more than UPSTREAM_MAX_IN_FLIGHT_PER_SITE requests at upstream, however many cold requests come', async () => {
    const { counts, handler } = countingUpstream(50);
    const stub = await startStubUpstream(handler);
    const bff = await startBff(stub.api, { appKey: 'ck_gate_key', secret: 'gate-secret-0123456789' }, { upstreamMaxInFlightPerSite: 2 });

    const paths = ['/organization', '/website', '/treatments', '/dentists'];
    await Promise.all(
      Array.from({ length: 80 }, async (_, index) => {
        const res = await fetch(`${bff.api}${paths[index % paths.length]}`);
        await res.arrayBuffer();
      }),
    );

    expect([...counts.paths].sort()).toEqual(paths.map((path) => `/api/v1${path}`).sort());
    expect(counts.mostCalls).toBe(2);
    expect(counts.mostExchanges).toBe(1);
  });

  it('token managers of many sites sharing one exchange gate never have more than its limit of exchanges in flight', async () => {
    const { counts, handler } = countingUpstream(30);
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
    const tokens = await Promise.all(managers.flatMap((manager) => [manager.get(), manager.get()]));

    expect(tokens).toHaveLength(80);
    expect(stub.requests.filter((req) => req.url === '/api/v1/granttoken')).toHaveLength(40);
    expect(counts.mostExchanges).toBe(3);
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
