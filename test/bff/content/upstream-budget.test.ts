import { describe, expect, it } from 'vitest';
import { DentistListResponse, ErrorBody, TreatmentListResponse, TreatmentResponse } from '../../../contract/index.js';
import { loadBffConfig } from '../../../bff/config.js';
import { validBooking } from '../../server/support/test-server.js';
import { FakeClock, TEST_NOW } from '../../support/fake-clock.js';
import { startStack, type Stack } from '../support/bff-harness.js';

/** The reference server's and the BFF's default limits: 600 upstream calls per key and 300 /api requests per IP a minute. */
const UPSTREAM_KEY_LIMIT = { limit: 600, windowMs: 60_000 };
const BFF_PER_IP_LIMIT = { limit: 300, windowMs: 60_000 };

/** Every request the reference server answered under /api/v1 except token exchanges (from its request log). */
const upstreamCalls = (stack: Stack) =>
  stack.upstream.logs.filter((line) => {
    const path = (JSON.parse(line) as { req?: { path?: string } }).req?.path ?? '';
    return path.startsWith('/api/v1/') && path !== '/api/v1/granttoken';
  }).length;

/** Runs `task` for 0..count-1, at most `concurrency` at a time; resolves to the results in order. */
async function pooled<T>(count: number, concurrency: number, task: (i: number) => Promise<T>): Promise<T[]> {
  const results: T[] = new Array<T>(count);
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const i = next++;
      results[i] = await task(i);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return results;
}

describe('GET /api/treatments/:id answered from the cached treatments list', async () => {

  const stack = await startStack({ bff: { trustProxy: true, apiRateLimit: BFF_PER_IP_LIMIT }, server: { apiRateLimit: UPSTREAM_KEY_LIMIT } });

  it('answers each listed treatment as the spec\'s {success, data} with the list\'s copy of it, and makes no upstream call per id', async () => {
    const list = TreatmentListResponse.parse(await (await fetch(`${stack.bff.api}/treatments`)).json());

    for (const treatment of list.data) {
      const res = await fetch(`${stack.bff.api}/treatments/${treatment.treatment_id}`);
      expect(res.status).toBe(200);
      expect(TreatmentResponse.parse(await res.json())).toEqual({ success: true, data: treatment });
    }

    expect(stack.upstreamHits('/treatments')).toBe(1);
    for (const treatment of list.data) expect(stack.upstreamHits(`/treatments/${treatment.treatment_id}`)).toBe(0);
  });

  it('answers 5,000 distinct unknown ids from 20 client IPs with 404 and no upstream call, and a booking from another IP still succeeds', async () => {
    const callsBefore = upstreamCalls(stack);

    const answers = await pooled(5000, 50, async (i) => {
      const res = await fetch(`${stack.bff.api}/treatments/${100_000 + i}`, { headers: { 'x-forwarded-for': `198.51.100.${(i % 20) + 1}` } });
      return { status: res.status, body: ErrorBody.parse(await res.json()) };
    });
    const booking = await fetch(`${stack.bff.api}/appointments/book`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': '203.0.113.7' },
      body: JSON.stringify(validBooking({ patient_name: 'After The Flood' })),
    });

    const unexpected = answers.filter(({ status, body }) => status !== 404 || body.message !== 'Treatment not found' || body.error_code !== 'not_found');
    expect(unexpected).toHaveLength(0);
    // Nothing but the booking, the website and dentists its checks read (once each), and at most the one
    // GET /treatments that fills the cache (made above when run in order).
    expect(upstreamCalls(stack) - callsBefore).toBeLessThanOrEqual(4);
    expect(stack.upstreamHits('/treatments')).toBe(1);
    expect(stack.upstreamHits('/appointments/book')).toBe(1);
    expect(booking.status).toBe(200);
  }, 60_000);
});

describe('the upstream read budget (UPSTREAM_READ_BUDGET)', () => {
  const BUDGET = 3;
  const TTL_MS = 10_000;
  const CONTENT = ['/organization', '/website', '/treatments'];

  /** A stack of the test's own, its BFF on a fake clock at the server's time (so the bookings below are ahead). */
  async function budgetedStack() {
    const time = new FakeClock(TEST_NOW);
    const stack = await startStack({
      clock: time,
      bff: { upstreamReadBudget: BUDGET, cache: { ttlMs: TTL_MS, maxStaleMs: 3600_000, maxBytes: 1024 * 1024 } },
    });
    const get = (path: string) => fetch(`${stack.bff.api}${path}`);
    // Each at its own time: a booking without a dentist gets one of the clinic's two, so a third at one time is 409.
    let bookings = 0;
    const book = (name: string) =>
      fetch(`${stack.bff.api}/appointments/book`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(validBooking({ patient_name: name, appointment_time: `1${bookings++}:00` })),
      });
    return { time, stack, get, book };
  }

  /** The same, with the minute's whole budget spent on three content misses. */
  async function spentBudget() {
    const budgeted = await budgetedStack();
    for (const path of CONTENT) expect((await budgeted.get(path)).status).toBe(200);
    return budgeted;
  }

  it('reads its default of 120 upstream content misses a minute, and UPSTREAM_READ_BUDGET when set', () => {
    const required = { UPSTREAM_URL: 'http://127.0.0.1:4000/api/v1', APP_KEY: 'ck_1', APP_SECRET_KEY: 'secret', BOOKING_REF_SECRET: 'x'.repeat(32) };

    expect(loadBffConfig(required, '/nonexistent').upstreamReadBudget).toBe(120);
    expect(loadBffConfig({ ...required, UPSTREAM_READ_BUDGET: '40' }, '/nonexistent').upstreamReadBudget).toBe(40);
    expect(() => loadBffConfig({ ...required, UPSTREAM_READ_BUDGET: '0' }, '/nonexistent')).toThrow('UPSTREAM_READ_BUDGET');
  });

  it('never counts bookings and status lookups: after them, the whole budget is left for content', async () => {
    const { get, book } = await budgetedStack();
    for (const name of ['Ann', 'Bob Smith', 'Cy']) {
      const booked = await book(name);
      expect(booked.status).toBe(200);
      const { reference } = ((await booked.json()) as { data: { reference: string } }).data;
      expect((await get(`/appointments/status/${reference}`)).status).toBe(200);
    }

    const statuses = [];
    for (const path of CONTENT) statuses.push((await get(path)).status);

    expect(statuses).toEqual([200, 200, 200]);
  });

  it('answers a content miss past the budget with 503 upstream_busy, the spec body and a Retry-After, without calling upstream', async () => {
    const { stack, get } = await spentBudget();
    const dentistReads = stack.upstreamHits('/dentists');

    const res = await get('/dentists');

    expect(res.status).toBe(503);
    expect(ErrorBody.parse(await res.json())).toEqual({ success: false, message: expect.any(String), error_code: 'upstream_busy' });
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(Number(res.headers.get('retry-after'))).toBeLessThanOrEqual(60);
    expect(stack.upstreamHits('/dentists')).toBe(dentistReads);
  });

  it('still forwards a booking while the budget is spent', async () => {
    const { stack, book } = await spentBudget();

    const res = await book('Dee Late');

    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ success: true, message: expect.any(String), data: { reference: expect.any(String), doctor_id: expect.any(Number) } });
    expect(stack.upstreamHits('/appointments/book')).toBe(1);
  });

  it('keeps serving the stale copy when the budget leaves nothing for its refresh', async () => {
    const { stack, time, get } = await spentBudget();
    const cached = await (await get('/organization')).text();
    time.advance(TTL_MS + 1000);

    const stale = await get('/organization');
    const again = await get('/organization');

    expect(stale.status).toBe(200);
    expect(await stale.text()).toBe(cached);
    expect(again.status).toBe(200);
    expect(await again.text()).toBe(cached);
    expect(stack.upstreamHits('/organization')).toBe(1);
  });

  it('lets content misses through again once a minute has passed since the budget was spent', async () => {
    const { stack, time, get } = await spentBudget();
    expect((await get('/dentists')).status).toBe(503);
    time.advance(60_000);
    const dentistReads = stack.upstreamHits('/dentists');

    const res = await get('/dentists');

    expect(res.status).toBe(200);
    expect(DentistListResponse.parse(await res.json()).data.length).toBeGreaterThan(0);
    expect(stack.upstreamHits('/dentists')).toBe(dentistReads + 1);
  });
});
