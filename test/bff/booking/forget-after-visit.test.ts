import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BffBookingResponse, BffStatusResponse } from '../../../contract/bff.js';
import { instantOf } from '../../../bff/availability/zoned-time.js';
import { FORGET_AFTER_VISIT_MS } from '../../../bff/booking/forget-after-visit.js';
import type { RedisLink } from '../../../platform/redis-link.js';
import { FakeClock, TEST_NOW } from '../../support/fake-clock.js';
import { validBooking } from '../../server/support/test-server.js';
import { serviceAvailable } from '../../support/service-available.js';
import { inspector, openLink, testKeyPrefix } from '../../support/redis.js';
import { startBff, startStack, type RunningBff } from '../support/bff-harness.js';

/**
 * What the BFF remembers about a booking (its dentist and treatment for
 * status lookups, the dentist a patient key tried, the slot it took) is gone
 * a week after the appointment at the latest (docs/privacy.md), in memory and
 * in Redis. One clock for the stack, moved by hand.
 */

const clock = new FakeClock(TEST_NOW);
const APPOINTMENT = { appointment_date: '2026-11-24', appointment_time: '10:00' };

const stack = await startStack({ clock, server: { clock } });

const book = async (bff: RunningBff, overrides: Record<string, unknown>, headers: Record<string, string> = {}) => {
  const res = await fetch(`${bff.api}/appointments/book`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(validBooking({ ...APPOINTMENT, ...overrides })),
  });
  expect(res.status).toBe(200);
  return BffBookingResponse.parse(await res.json()).data.reference;
};

const statusOf = async (reference: string) => {
  const res = await fetch(`${stack.bff.api}/appointments/status`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ reference }),
  });
  expect(res.status).toBe(200);
  return BffStatusResponse.parse(await res.json()).data;
};

/** Milliseconds from the clock's now until a week after the appointment. */
const untilForgotten = () => instantOf(APPOINTMENT.appointment_date, APPOINTMENT.appointment_time, stack.bff.config.clinicTimeZone) + FORGET_AFTER_VISIT_MS - clock.now().getTime();

describe('the dentist and treatment a status lookup names', () => {
  it('are remembered until a week after the appointment, then forgotten while the status still answers', async () => {
    const reference = await book(stack.bff, { doctor_id: 1, treatment_id: 1 });
    expect(await statusOf(reference)).toMatchObject({ doctor_id: 1, treatment_id: 1 });

    clock.advance(untilForgotten() - 60_000);
    const aMinuteBefore = await statusOf(reference);
    clock.advance(60_000 + 1);
    const then = await statusOf(reference);

    expect(aMinuteBefore).toMatchObject({ doctor_id: 1, treatment_id: 1 });
    expect(then).not.toHaveProperty('doctor_id');
    expect(then).not.toHaveProperty('treatment_id');
    expect(then).toMatchObject({ status: 'Scheduled', date: APPOINTMENT.appointment_date });
  });
});

describe.runIf(serviceAvailable('redis'))('what a booking leaves in Redis', () => {
  const prefix = testKeyPrefix('bff-forget-after-visit');
  let link: RedisLink;
  let redis: Awaited<ReturnType<typeof inspector>>;
  let shared: RunningBff;

  beforeAll(async () => {
    link = await openLink(prefix);
    redis = await inspector();
    shared = await startBff(stack.upstream.api, stack.clinic, {}, clock, link);
  });
  afterAll(async () => {
    await shared.close();
    await link.close();
    await redis.cleanUp(prefix);
    await redis.close();
  });

  it('expires, every key of it, by a week after the appointment', async () => {
    // The clock back to the day before the appointment: an "any dentist" booking with a patient key.
    const back = new FakeClock(TEST_NOW).now().getTime() - clock.now().getTime();
    clock.advance(back);
    await book(shared, { appointment_time: '11:00' }, { 'idempotency-key': 'forget-after-visit-1' });

    const keys = (await redis.keys(prefix)).filter((key) => /:(dentist|taken):/.test(key));
    const ttls = await Promise.all(keys.map((key) => redis.pttl(key)));

    expect(keys.some((key) => key.includes(':dentist:'))).toBe(true);
    expect(keys.some((key) => key.includes(':taken:'))).toBe(true);
    for (const ttl of ttls) {
      expect(ttl).toBeGreaterThan(0);
      expect(ttl).toBeLessThanOrEqual(untilForgotten());
    }
  });
});
