import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AvailabilityResponse, BffBookingResponse } from '../../../contract/bff.js';
import type { RedisLink } from '../../../platform/redis-link.js';
import { FakeClock, TEST_NOW } from '../../support/fake-clock.js';
import { grantToken, removeDb, seedClinic, startTestServer, validBooking, type SeededClinic, type TestServer } from '../../server/support/test-server.js';
import { startBff, type RunningBff } from '../support/bff-harness.js';
import { serviceAvailable } from '../../support/service-available.js';
import { inspector, openLink, testKeyPrefix } from '../../support/redis.js';

/**
 * Two BFFs of one clinic on one Redis (REDIS_URL): a slot one of them learnt
 * taken, from its own booking or from upstream's 409, is taken in the other's
 * availability too, until the slot's time has passed. The BFFs' clocks stand at
 * TEST_NOW, Monday 23 November 2026 09:00 in London.
 */

const TUESDAY = '2026-11-24';
const MS_UNTIL_TUESDAY_13_00 = Date.parse('2026-11-24T13:00:00Z') - Date.parse(TEST_NOW);

describe.runIf(serviceAvailable('redis'))('taken slots shared through Redis', () => {
  const prefix = testKeyPrefix('bff-taken-slots');
  let upstream: TestServer;
  let clinic: SeededClinic;
  let links: RedisLink[] = [];
  let a: RunningBff;
  let b: RunningBff;
  /** A BFF of another clinic on the same Redis. */
  let other: RunningBff;
  let dentists: number[];
  let redis: Awaited<ReturnType<typeof inspector>>;

  const bffOn = async (credentials: { appKey: string; secret: string }) => {
    const link = await openLink(prefix);
    links.push(link);
    return startBff(upstream.api, credentials, {}, new FakeClock(TEST_NOW), link);
  };

  beforeAll(async () => {
    upstream = await startTestServer();
    clinic = await seedClinic(upstream);
    a = await bffOn(clinic);
    b = await bffOn(clinic);
    other = await bffOn(await seedClinic(upstream));
    dentists = ((await (await fetch(`${a.api}/dentists`)).json()) as { data: { doctor_id: number }[] }).data.map((d) => d.doctor_id);
    redis = await inspector();
  });
  afterAll(async () => {
    await Promise.all([a, b, other].map((bff) => bff.close()));
    await Promise.all(links.map((link) => link.close()));
    links = [];
    await upstream.close();
    removeDb(upstream.dbPath);
    await redis.cleanUp(prefix);
    await redis.close();
  });

  async function slotsOf(bff: RunningBff, doctorId: number): Promise<Record<string, string>> {
    const res = await fetch(`${bff.api}/availability?date=${TUESDAY}&doctor_id=${doctorId}`);
    expect(res.status).toBe(200);
    return Object.fromEntries(AvailabilityResponse.parse(await res.json()).data.slots.map((slot) => [slot.time, slot.status]));
  }

  const book = (bff: RunningBff, doctorId: number, time: string) =>
    fetch(`${bff.api}/appointments/book`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(validBooking({ doctor_id: doctorId, appointment_time: time })),
    });

  it('shows a slot booked through one BFF as taken in the other, which never saw the booking', async () => {
    const [first] = dentists as [number];
    expect((await slotsOf(b, first))['13:00']).toBe('open');

    expect((await book(a, first, '13:00')).status).toBe(200);

    expect((await slotsOf(b, first))['13:00']).toBe('taken');
    expect((await slotsOf(b, first))['13:15']).toBe('open');
  });

  it("shows a slot one BFF learnt taken from upstream's 409 as taken in the other", async () => {
    const [, second] = dentists as [number, number];
    const token = await grantToken(upstream, clinic);
    const behindItsBack = await fetch(`${upstream.api}/appointments/book`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-app-key': clinic.appKey, authorization: `Bearer ${token}` },
      body: JSON.stringify(validBooking({ doctor_id: second, appointment_time: '14:00' })),
    });
    expect(behindItsBack.status).toBe(200);
    expect((await slotsOf(a, second))['14:00']).toBe('open');

    expect((await book(b, second, '14:00')).status).toBe(409);

    expect((await slotsOf(a, second))['14:00']).toBe('taken');
  });

  it("keeps a dentist's taken starts of a day in Redis until the latest of them, under the clinic's namespace", async () => {
    const [first] = dentists as [number];
    const [key] = (await redis.keys(prefix)).filter((name) => name.endsWith(`:taken:${first}:${TUESDAY}`));
    expect(key).toMatch(/^test:.+:bff:[0-9a-f]{16}:taken:/);
    const ttl = () => redis.pttl(key as string);
    expect(await ttl()).toBeLessThanOrEqual(MS_UNTIL_TUESDAY_13_00);
    expect(await ttl()).toBeGreaterThan(MS_UNTIL_TUESDAY_13_00 - 60_000);

    await b.takenSlots.markTaken(first, TUESDAY, '15:00');
    expect(await ttl()).toBeGreaterThan(MS_UNTIL_TUESDAY_13_00 + 2 * 3600_000 - 60_000);
    await b.takenSlots.markTaken(first, TUESDAY, '09:30');

    // An earlier start never shortens the day's life.
    expect(await ttl()).toBeGreaterThan(MS_UNTIL_TUESDAY_13_00 + 2 * 3600_000 - 60_000);
    expect(await a.takenSlots.isTaken(first, TUESDAY, '09:30')).toBe(true);
    expect(await a.takenSlots.isTaken(first, TUESDAY, '09:45')).toBe(false);
  });

  it("never shows one clinic's taken slots to another clinic's BFF on the same Redis", async () => {
    const [first] = dentists as [number];

    expect(await b.takenSlots.isTaken(first, TUESDAY, '13:00')).toBe(true);
    expect(await other.takenSlots.isTaken(first, TUESDAY, '13:00')).toBe(false);
  });

  it('books for any dentist without an Idempotency-Key, and the other BFF shows that dentist taken', async () => {
    const res = await fetch(`${a.api}/appointments/book`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(validBooking({ appointment_time: '13:30' })),
    });

    expect(res.status).toBe(200);
    const { doctor_id } = BffBookingResponse.parse(await res.json()).data;
    expect(doctor_id).toEqual(expect.any(Number));
    expect((await slotsOf(b, doctor_id as number))['13:30']).toBe('taken');
  });
});
