import { describe, expect, it } from 'vitest';
import { ErrorBody } from '../../../contract/index.js';
import { validBooking } from '../../server/support/test-server.js';
import { startBff, startStack, type RunningBff } from '../support/bff-harness.js';

/** The reference server the BFFs below stand in front of; each test starts a BFF of its own, so no test inherits a spent budget. */
const stack = await startStack();

/** A BFF whose bookings are limited to two a minute per IP. */
const bookingLimited = () => startBff(stack.upstream.api, stack.clinic, { bookingRateLimit: { limit: 2, windowMs: 60_000 } });
/** A BFF with a small limit on all of /api. */
const apiLimited = () => startBff(stack.upstream.api, stack.clinic, { apiRateLimit: { limit: 5, windowMs: 60_000 } });

/** Each booking at a time of its own, so none is refused for its slot. */
let bookings = 0;
const book = (bff: RunningBff) =>
  fetch(`${bff.api}/appointments/book`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(validBooking({ appointment_time: `${String(9 + Math.floor(bookings / 4)).padStart(2, '0')}:${String((bookings++ % 4) * 15).padStart(2, '0')}` })),
  });

/** Spends a BFF's booking budget: two bookings, both booked. */
async function spendBookings(bff: RunningBff): Promise<void> {
  for (let i = 0; i < 2; i++) expect((await book(bff)).status).toBe(200);
}

/** Spends a BFF's /api budget: five GETs, all answered. */
async function spendApi(bff: RunningBff): Promise<void> {
  for (let i = 0; i < 5; i++) expect((await fetch(`${bff.api}/treatments`)).status).toBe(200);
}

async function expectRateLimited(res: Response): Promise<void> {
  expect(res.status).toBe(429);
  expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
  const body = ErrorBody.parse(await res.json());
  expect(body).toEqual({ success: false, message: expect.any(String), error_code: 'rate_limited' });
}

describe('per-IP booking rate limit', () => {
  it('answers the third booking from one IP with 429 rate_limited, Retry-After and the spec body', async () => {
    const bff = await bookingLimited();
    await spendBookings(bff);

    await expectRateLimited(await book(bff));
  });

  it('does not forward a rate-limited booking upstream', async () => {
    const bff = await bookingLimited();
    await spendBookings(bff);
    const before = stack.upstreamHits('/appointments/book');

    await expectRateLimited(await book(bff));

    expect(stack.upstreamHits('/appointments/book')).toBe(before);
  });

  it('leaves the content routes usable for the same IP', async () => {
    const bff = await bookingLimited();
    await spendBookings(bff);
    await expectRateLimited(await book(bff));

    const res = await fetch(`${bff.api}/treatments`);

    expect(res.status).toBe(200);
    expect(((await res.json()) as { success: boolean; data: unknown[] }).data.length).toBeGreaterThan(0);
  });
});

describe('per-IP rate limit on all of /api', () => {
  it('answers the sixth GET from one IP with 429 rate_limited, Retry-After and the spec body', async () => {
    const bff = await apiLimited();
    await spendApi(bff);

    await expectRateLimited(await fetch(`${bff.api}/treatments`));
  });

  it('counts every /api route in the same budget', async () => {
    const bff = await apiLimited();
    await spendApi(bff);

    await expectRateLimited(await fetch(`${bff.api}/dentists`));
    await expectRateLimited(await fetch(`${bff.api}/nope`));
  });

  it('does not limit the health check', async () => {
    const bff = await apiLimited();
    await spendApi(bff);
    await expectRateLimited(await fetch(`${bff.api}/treatments`));

    const res = await fetch(`${bff.baseUrl}/healthz`);

    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ok' });
  });
});
