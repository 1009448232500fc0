import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FakeClock, TEST_NOW } from '../../support/fake-clock.js';
import { AUTH_FAILED, validBooking } from '../../server/support/test-server.js';
import {
  startBff,
  startStack,
  startStubUpstream,
  type RecordedRequest,
  type RunningBff,
  type Stack,
  type StubHandler,
  type StubUpstream,
} from '../support/bff-harness.js';
import { expectError } from '../../support/expect-error.js';

const STUB_CREDENTIALS = { appKey: 'ck_stub_key', secret: 'stub-secret-0123456789' };

/** 60 s before the upstream's 3600 s lifetime: where the BFF renews. */
const RENEW_AT_MS = (3600 - 60) * 1000;

const get = (bff: RunningBff, path: string) => fetch(`${bff.api}${path}`);

const activeTreatmentIds = async (stack: Stack) =>
  (
    await stack.upstream.db
      .selectFrom('treatments')
      .select('treatment_id')
      .where('care_id', '=', stack.clinic.careId)
      .where('active', '=', 1)
      .orderBy('treatment_id')
      .execute()
  ).map((row) => row.treatment_id);

const exchangesOf = (stub: StubUpstream) => stub.requests.filter((req) => req.url === '/api/v1/granttoken');
const callsTo = (stub: StubUpstream, path: string) => stub.requests.filter((req: RecordedRequest) => req.url === `/api/v1${path}`);

/** Grants a new token on every exchange (stub-token-1, -2, …) and refuses every API call with 401. */
function refusingEveryToken(): StubHandler {
  let issued = 0;
  return (req, res) => {
    res.setHeader('content-type', 'application/json');
    if (req.url === '/api/v1/granttoken') {
      issued += 1;
      res.end(JSON.stringify({ access_token: `stub-token-${issued}-0123456789abcdef`, expires_in: 3600 }));
      return;
    }
    res.statusCode = 401;
    res.end(JSON.stringify(AUTH_FAILED));
  };
}

/** /granttoken answers 500; nothing else is ever reached. */
const failingExchange: StubHandler = (_req, res) => {
  res.statusCode = 500;
  res.setHeader('content-type', 'application/json');
  res.end(JSON.stringify({ success: false, message: 'Internal server error', error_code: 'internal_error' }));
};

describe('token exchange in front of the reference server', async () => {

  const stack = await startStack();

  it('answers 200 cold concurrent requests with one token exchange and one upstream GET per resource', async () => {
    const resources = ['/treatments', '/dentists', '/website'];
    const paths = resources.flatMap((resource) => Array.from({ length: 50 }, () => resource));

    const answers = await Promise.all(
      paths.map(async (path) => {
        const res = await get(stack.bff, path);
        await res.arrayBuffer();
        return res.status;
      }),
    );

    expect(answers).toHaveLength(150);
    expect(answers.every((status) => status === 200)).toBe(true);
    expect(stack.upstreamHits('/granttoken')).toBe(1);
    for (const resource of resources) expect(stack.upstreamHits(resource), resource).toBe(1);
  });

  it('reuses the same token for a later request on a path not yet cached', async () => {
    const own = await startStack();
    expect((await get(own.bff, '/treatments')).status).toBe(200);

    const res = await get(own.bff, '/organization');

    expect(res.status).toBe(200);
    expect(own.upstreamHits('/organization')).toBe(1);
    expect(own.upstreamHits('/granttoken')).toBe(1);
  });
});

describe('token renewal and an upstream 401', () => {
  /** A stack of the test's own, the BFF's clock and the server's apart (at the server's time, so bookings are ahead), its token got. */
  async function stackWithToken() {
    const time = new FakeClock(TEST_NOW);
    const upstreamClock = new FakeClock(TEST_NOW);
    const stack = await startStack({ clock: time, server: { clock: upstreamClock } });
    expect((await get(stack.bff, '/organization')).status).toBe(200);
    return { time, upstreamClock, stack };
  }

  it('keeps using the token until 60 s before expires_in runs out', async () => {
    const { time, stack } = await stackWithToken();
    time.advance(RENEW_AT_MS - 1000);

    const res = await get(stack.bff, '/website');

    expect(res.status).toBe(200);
    expect(stack.upstreamHits('/granttoken')).toBe(1);
  });

  it('exchanges exactly once for a new token past that point, with no error reaching the browser', async () => {
    const { time, stack } = await stackWithToken();
    const [treatmentId] = await activeTreatmentIds(stack);
    time.advance(RENEW_AT_MS + 1000);
    const paths = ['/treatments', '/dentists', `/treatments/${treatmentId}`];

    const statuses = await Promise.all(paths.map(async (path) => (await get(stack.bff, path)).status));

    expect(statuses).toEqual([200, 200, 200]);
    expect(stack.upstreamHits('/granttoken')).toBe(2);
    // Renewed before use, not after a refusal: each resource reached upstream once (a treatment by id is read from the list).
    for (const path of ['/treatments', '/dentists']) expect(stack.upstreamHits(path), path).toBe(1);
  });

  it('drops a token the upstream refuses, exchanges once more and retries the request once', async () => {
    const { upstreamClock, stack } = await stackWithToken();
    // The website and dentists are fresh in the cache, so the booking's checks read nothing: the booking is the one upstream call.
    expect((await get(stack.bff, '/website')).status).toBe(200);
    const dentists = (await (await get(stack.bff, '/dentists')).json()) as { data: { doctor_id: number }[] };
    const exchangesBefore = stack.upstreamHits('/granttoken');
    // The token expires upstream while the BFF still thinks it is valid.
    upstreamClock.advance(3601 * 1000);

    // A booking: every content path is cached by now, and a booking always goes upstream.
    const res = await fetch(`${stack.bff.api}/appointments/book`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(validBooking({ doctor_id: dentists.data[0]!.doctor_id })),
    });

    expect(res.status).toBe(200);
    expect(((await res.json()) as { data: { reference: string } }).data.reference).toMatch(/^[0-9A-Z]{4}(-[0-9A-Z]{4}){4}$/);
    expect(stack.upstreamHits('/granttoken')).toBe(exchangesBefore + 1);
    expect(stack.upstreamHits('/appointments/book')).toBe(2);
  });
});

describe('token failures from a stub upstream', () => {
  describe('when the upstream refuses every token with 401', () => {
    let stub: StubUpstream;
    let bff: RunningBff;

    beforeAll(async () => {
      stub = await startStubUpstream(refusingEveryToken());
      bff = await startBff(stub.api, STUB_CREDENTIALS);
    });
    afterAll(async () => {
      await bff.close();
      await stub.close();
    });

    it('answers 502 upstream_unavailable after exactly two upstream attempts, with a fresh token for the second', async () => {
      const res = await get(bff, '/treatments');

      await expectError(res, 502, 'upstream_unavailable');
      const attempts = callsTo(stub, '/treatments');
      expect(attempts).toHaveLength(2);
      expect(exchangesOf(stub)).toHaveLength(2);
      expect(attempts.map((req) => req.headers.authorization)).toEqual([
        'Bearer stub-token-1-0123456789abcdef',
        'Bearer stub-token-2-0123456789abcdef',
      ]);
    });
  });

  describe('when /granttoken answers 500', () => {
    let time: FakeClock;
    let stub: StubUpstream;
    let bff: RunningBff;

    // A BFF of each test's own, cold: no back-off started by another test.
    beforeEach(async () => {
      time = new FakeClock(Date.now());
      stub = await startStubUpstream(failingExchange);
      bff = await startBff(stub.api, STUB_CREDENTIALS, {}, time);
    });
    afterEach(async () => {
      await bff.close();
      await stub.close();
    });

    it('answers 502 upstream_unavailable without passing the upstream body on', async () => {
      const res = await get(bff, '/treatments');

      const body = await expectError(res, 502, 'upstream_unavailable');
      expect(body.message).not.toContain('Internal server error');
      expect(exchangesOf(stub)).toHaveLength(1);
    });

    it('backs off: a second request right after does not call /granttoken again', async () => {
      await expectError(await get(bff, '/treatments'), 502, 'upstream_unavailable');

      const res = await get(bff, '/dentists');

      await expectError(res, 502, 'upstream_unavailable');
      expect(exchangesOf(stub)).toHaveLength(1);
      expect(callsTo(stub, '/dentists')).toHaveLength(0);
    });

    it('exchanges again once the back-off has passed', async () => {
      await expectError(await get(bff, '/treatments'), 502, 'upstream_unavailable');
      stub.handle((req, res) => {
        res.setHeader('content-type', 'application/json');
        if (req.url === '/api/v1/granttoken') {
          res.end(JSON.stringify({ access_token: 'stub-token-recovered-0123456789', expires_in: 3600 }));
          return;
        }
        res.end(JSON.stringify({ success: true, data: [] }));
      });
      time.advance(31_000);

      const res = await get(bff, '/treatments');

      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ success: true, data: [] });
      expect(exchangesOf(stub)).toHaveLength(2);
    });
  });
});

describe('GET /healthz and GET /readyz', () => {
  describe('with a healthy upstream', () => {
    let stack: Stack;

    beforeAll(async () => {
      stack = await startStack();
    });
    afterAll(async () => {
      await stack.close();
    });

    it('answers /readyz 200 {status: "ready"}', async () => {
      const res = await fetch(`${stack.bff.baseUrl}/readyz`);

      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ status: 'ready' });
    });

    it('answers /healthz 200', async () => {
      const res = await fetch(`${stack.bff.baseUrl}/healthz`);

      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ status: 'ok' });
    });
  });

  describe('when no token can be obtained', () => {
    let stub: StubUpstream;
    let bff: RunningBff;

    beforeAll(async () => {
      stub = await startStubUpstream(failingExchange);
      bff = await startBff(stub.api, STUB_CREDENTIALS);
    });
    afterAll(async () => {
      await bff.close();
      await stub.close();
    });

    it('answers /readyz 503', async () => {
      const res = await fetch(`${bff.baseUrl}/readyz`);

      expect(res.status).toBe(503);
      expect(await res.json()).toEqual({ status: 'upstream unavailable' });
      expect(exchangesOf(stub).length).toBeGreaterThanOrEqual(1);
    });

    it('still answers /healthz 200: the process is up', async () => {
      const res = await fetch(`${bff.baseUrl}/healthz`);

      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ status: 'ok' });
    });
  });
});
