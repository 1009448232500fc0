import type { ServerResponse } from 'node:http';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ErrorBody } from '../../../contract/index.js';
import { createReference } from '../../../bff/booking/booking-reference.js';
import { validBooking } from '../../server/support/test-server.js';
import { startBff, startStubUpstream, type RecordedRequest, type RunningBff, type StubUpstream } from '../support/bff-harness.js';

const CREDENTIALS = { appKey: 'ck_busy_stub', secret: 'busy-stub-secret-0123456789' };
const TOKEN = { access_token: 'stub-token-busy-0123456789abcdef', expires_in: 3600 };

/** The spec body the upstream's own rate limit answers with. */
const UPSTREAM_429 = { success: false, message: 'Rate limit exceeded for this app key', error_code: 'rate_limited' };

async function expectBusy(res: Response): Promise<{ body: ErrorBody; retryAfter: string | null }> {
  expect(res.status).toBe(503);
  const body = ErrorBody.parse(await res.json());
  expect(body).toEqual({ success: false, message: expect.any(String), error_code: 'upstream_busy' });
  return { body, retryAfter: res.headers.get('retry-after') };
}

const book = (bff: RunningBff, body: unknown = validBooking()) =>
  fetch(`${bff.api}/appointments/book`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'idempotency-key': 'busy-key-1' },
    body: JSON.stringify(body),
  });

describe('an upstream that answers 429 (busy) with nothing cached', async () => {
  /** What the stub sends as Retry-After on its 429s; undefined sends none. */
  let retryAfter: string | undefined;

  const busyUpstream = (req: RecordedRequest, res: ServerResponse) => {
    res.setHeader('content-type', 'application/json');
    if (req.url === '/api/v1/granttoken') return void res.end(JSON.stringify(TOKEN));
    res.statusCode = 429;
    if (retryAfter !== undefined) res.setHeader('retry-after', retryAfter);
    res.end(JSON.stringify(UPSTREAM_429));
  };

  const stub = await startStubUpstream(busyUpstream);
  const bff = await startBff(stub.api, CREDENTIALS);
  beforeEach(() => {
    retryAfter = '40';
  });

  it.each(['/organization', '/website', '/treatments', '/treatments/3', '/dentists'])(
    'answers GET /api%s with 503 upstream_busy and the spec error body, not 502',
    async (path) => {
      const { body } = await expectBusy(await fetch(`${bff.api}${path}`));

      expect(body.message).not.toContain('app key');
    },
  );

  it("passes the upstream's Retry-After on", async () => {
    const { retryAfter: sent } = await expectBusy(await fetch(`${bff.api}/website`));

    expect(sent).toBe('40');
  });

  it('answers Retry-After 30 when the upstream sent none', async () => {
    retryAfter = undefined;

    const { retryAfter: sent } = await expectBusy(await fetch(`${bff.api}/treatments/11`));

    expect(sent).toBe('30');
  });

  it.each([
    ['an HTTP date', 'Wed, 21 Oct 2026 07:28:00 GMT', '30'],
    ['a header injection attempt', '5, 6\tX', '30'],
    ['a negative number', '-5', '30'],
    ['zero', '0', '1'],
    ['a decimal', '2.5', '30'],
    ['a week', '604800', '300'],
    ['a 30-digit number', '9'.repeat(30), '300'],
  ])('answers a sanitised Retry-After when the upstream sent %s', async (_name, sent, expected) => {
    retryAfter = sent;

    const { retryAfter: passed } = await expectBusy(await fetch(`${bff.api}/treatments/12`));

    expect(passed).toBe(expected);
  });

  it('answers a booking the upstream refuses with 429 as 503 upstream_busy with Retry-After, not 429', async () => {
    const res = await book(bff);

    const { retryAfter: sent } = await expectBusy(res);
    expect(sent).toBe('40');
    expect(res.headers.get('cache-control')).toBe('no-store');
  });

  it('answers a status lookup the upstream refuses with 429 as 503 upstream_busy', async () => {
    await expectBusy(await fetch(`${bff.api}/appointments/status/${createReference(5, bff.config.referenceKey)}`));
  });

  it("exposes Retry-After to the clinic's site (CORS)", async () => {
    const res = await fetch(`${bff.api}/website`, { headers: { origin: 'https://clinic.example' } });

    await expectBusy(res);
    expect(res.headers.get('access-control-expose-headers')?.toLowerCase()).toContain('retry-after');
  });
});

describe("the BFF's own per-IP booking limit", () => {
  let stub: StubUpstream;
  let bff: RunningBff;

  beforeAll(async () => {
    stub = await startStubUpstream((req, res) => {
      res.setHeader('content-type', 'application/json');
      if (req.url === '/api/v1/granttoken') return void res.end(JSON.stringify(TOKEN));
      res.end(JSON.stringify({ success: true, message: 'Appointment booked successfully', data: { appointment_id: 9 } }));
    });
    bff = await startBff(stub.api, CREDENTIALS, { bookingRateLimit: { limit: 1, windowMs: 60_000 } });
  });
  afterAll(async () => {
    await bff.close();
    await stub.close();
  });

  it('stays 429 rate_limited, distinct from an upstream that is busy (503 upstream_busy)', async () => {
    expect((await book(bff)).status).toBe(200);

    const res = await book(bff);

    expect(res.status).toBe(429);
    expect(ErrorBody.parse(await res.json()).error_code).toBe('rate_limited');
    expect(res.headers.get('ratelimit-policy')).toContain('"booking"');
  });
});

describe('a token exchange the upstream refuses with 429', () => {
  let stub: StubUpstream;
  let bff: RunningBff;

  // A BFF of each test's own: the back-off one exchange starts is the second test's to arrange.
  beforeEach(async () => {
    stub = await startStubUpstream((_req, res) => {
      res.statusCode = 429;
      res.setHeader('content-type', 'application/json');
      res.setHeader('retry-after', '17');
      res.end(JSON.stringify(UPSTREAM_429));
    });
    bff = await startBff(stub.api, CREDENTIALS);
  });
  afterEach(async () => {
    await bff.close();
    await stub.close();
  });

  it('answers 503 upstream_busy with the Retry-After of /granttoken', async () => {
    const { retryAfter } = await expectBusy(await fetch(`${bff.api}/dentists`));

    expect(retryAfter).toBe('17');
  });

  it('answers 503 upstream_busy, not 502, to a request during the back-off that follows, without another exchange', async () => {
    await expectBusy(await fetch(`${bff.api}/dentists`));
    const exchanges = stub.requests.length;

    const { retryAfter } = await expectBusy(await fetch(`${bff.api}/organization`));

    expect(stub.requests.length).toBe(exchanges);
    expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);
    expect(Number(retryAfter)).toBeLessThanOrEqual(17);
  });
});
