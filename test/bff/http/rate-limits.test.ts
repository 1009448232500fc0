import { describe, expect, it } from 'vitest';
import { ErrorBody } from '../../../contract/index.js';
import { validBooking } from '../../server/support/test-server.js';
import { startBff, startStack } from '../support/bff-harness.js';

const stack = await startStack({ bff: { bookingRateLimit: { limit: 2, windowMs: 60_000 } } });
/** A second BFF on the same upstream with a small limit on all of /api. */
const tightApi = await startBff(stack.upstream.api, stack.clinic, { apiRateLimit: { limit: 5, windowMs: 60_000 } });

const book = (time: string) =>
  fetch(`${stack.bff.api}/appointments/book`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(validBooking({ appointment_time: time })),
  });

async function expectRateLimited(res: Response): Promise<void> {
  expect(res.status).toBe(429);
  expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
  const body = ErrorBody.parse(await res.json());
  expect(body).toEqual({ success: false, message: expect.any(String), error_code: 'rate_limited' });
}

describe('per-IP booking rate limit', () => {
  it('answers the third booking from one IP with 429 rate_limited, Retry-After and the spec body', async () => {
    expect((await book('10:00')).status).toBe(200);
    expect((await book('10:15')).status).toBe(200);

    await expectRateLimited(await book('10:30'));
  });

  it('does not forward a rate-limited booking upstream', async () => {
    const before = stack.upstreamHits('/appointments/book');

    await expectRateLimited(await book('10:45'));

    expect(stack.upstreamHits('/appointments/book')).toBe(before);
  });

  it('leaves the content routes usable for the same IP', async () => {
    const res = await fetch(`${stack.bff.api}/treatments`);

    expect(res.status).toBe(200);
  });
});

describe('per-IP rate limit on all of /api', () => {
  it('answers the sixth GET from one IP with 429 rate_limited, Retry-After and the spec body', async () => {
    for (let i = 0; i < 5; i++) expect((await fetch(`${tightApi.api}/treatments`)).status).toBe(200);

    await expectRateLimited(await fetch(`${tightApi.api}/treatments`));
  });

  it('counts every /api route in the same budget', async () => {
    await expectRateLimited(await fetch(`${tightApi.api}/dentists`));
    await expectRateLimited(await fetch(`${tightApi.api}/nope`));
  });

  it('does not limit the health check', async () => {
    const res = await fetch(`${tightApi.baseUrl}/healthz`);

    expect(res.status).toBe(200);
  });
});
