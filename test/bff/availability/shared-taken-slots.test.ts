import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AvailabilityResponse, BffBookingResponse } from '../../../contract/bff.js';
import type { RedisLink } from '../../../platform/redis-link.js';
import { FakeClock, TEST_NOW } from '../../support/fake-clock.js';
import { grantToken, removeDb, seedClinic, startTestServer, validBooking, type SeededClinic, type TestServer } from '../../server/support/test-server.js';
import { bffClinicFixture, heldAt, startBff, type RunningBff } from '../support/bff-harness.js';
import { serviceAvailable } from '../../support/service-available.js';
import { inspector, openLink, testKeyPrefix } from '../../support/redis.js';

/**
 * Two BFFs of one clinic on one Redis (REDIS_URL): time one of them learnt
 * taken, a booking's whole interval or a start upstream refused 409, is taken
 * in the other's availability too, until it has ended. The BFFs' clocks stand at
 * TEST_NOW, Monday 23 November 2026 09:00 in London.
 */

const TUESDAY = '2026-11-24';
/** Days of their own for the tests that look at a dentist's whole day in Redis, which the other tests' bookings would change. */
const WEDNESDAY = '2026-11-25';
const THURSDAY = '2026-11-26';
const FRIDAY = '2026-11-27';
/** From the BFFs' clock to `time` on `day` in London (UTC in November). */
const msUntil = (day: string, time: string) => Date.parse(`${day}T${time}:00Z`) - Date.parse(TEST_NOW);

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
    clinic = await seedClinic(upstream, bffClinicFixture());
    a = await bffOn(clinic);
    b = await bffOn(clinic);
    other = await bffOn(await seedClinic(upstream, bffClinicFixture()));
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

  async function slotsOf(bff: RunningBff, doctorId: number, treatmentId?: number, day = TUESDAY): Promise<Record<string, string>> {
    const treatment = treatmentId === undefined ? '' : `&treatment_id=${treatmentId}`;
    const res = await fetch(`${bff.api}/availability?date=${day}&doctor_id=${doctorId}${treatment}`);
    expect(res.status).toBe(200);
    return Object.fromEntries(AvailabilityResponse.parse(await res.json()).data.slots.map((slot) => [slot.time, slot.status]));
  }

  /** The id of the fixture's active treatment that lasts `minutes`. */
  async function treatmentOf(bff: RunningBff, minutes: number): Promise<number> {
    const { data } = (await (await fetch(`${bff.api}/treatments`)).json()) as { data: { treatment_id: number; duration_minutes: number }[] };
    return data.find((treatment) => treatment.duration_minutes === minutes)!.treatment_id;
  }

  const book = (bff: RunningBff, doctorId: number, time: string, day = TUESDAY) =>
    fetch(`${bff.api}/appointments/book`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(validBooking({ doctor_id: doctorId, appointment_date: day, appointment_time: time })),
    });
  /** The Redis key of a dentist's taken intervals on a day. */
  const takenKey = async (doctorId: number, day: string) => (await redis.keys(prefix)).find((name) => name.endsWith(`:taken:${doctorId}:${day}`));

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

  it("keeps a dentist's taken intervals of a day in Redis until the latest end, under the clinic's namespace", async () => {
    const [first] = dentists as [number];
    expect((await book(a, first, '13:00', WEDNESDAY)).status).toBe(200);
    const key = await takenKey(first, WEDNESDAY);
    expect(key).toMatch(/^test:.+:bff:[0-9a-f]{16}:taken:/);
    const ttl = () => redis.pttl(key as string);
    expect(await ttl()).toBeLessThanOrEqual(msUntil(WEDNESDAY, '13:15'));
    expect(await ttl()).toBeGreaterThan(msUntil(WEDNESDAY, '13:15') - 60_000);

    await b.takenSlots.markTaken(first, WEDNESDAY, { start: '15:00', end: '15:15' });
    expect(await ttl()).toBeGreaterThan(msUntil(WEDNESDAY, '15:15') - 60_000);
    await b.takenSlots.markTaken(first, WEDNESDAY, { start: '09:30', end: '09:45' });

    // An earlier interval never shortens the day's life.
    expect(await ttl()).toBeGreaterThan(msUntil(WEDNESDAY, '15:15') - 60_000);
    expect(await heldAt(a.takenSlots, first, WEDNESDAY, '09:30')).toBe(true);
    expect(await heldAt(a.takenSlots, first, WEDNESDAY, '09:45')).toBe(false);
  });

  it("never shows one clinic's taken slots to another clinic's BFF on the same Redis", async () => {
    const [first] = dentists as [number];
    expect((await book(a, first, '13:00', THURSDAY)).status).toBe(200);

    expect(await heldAt(b.takenSlots, first, THURSDAY, '13:00')).toBe(true);
    expect(await heldAt(other.takenSlots, first, THURSDAY, '13:00')).toBe(false);
  });

  it('shows the whole interval of a 90-minute booking through one BFF as taken in the other, for any length asked', async () => {
    const [, second] = dentists as [number, number];
    const whitening = await treatmentOf(a, 90);

    const res = await fetch(`${b.api}/appointments/book`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(validBooking({ doctor_id: second, treatment_id: whitening, appointment_time: '16:00' })),
    });

    expect(res.status).toBe(200);
    const fifteen = await slotsOf(a, second);
    expect(['15:45', '16:00', '16:15', '17:15', '17:30'].map((time) => fifteen[time])).toEqual(['open', 'taken', 'taken', 'taken', 'open']);
    const ninety = await slotsOf(a, second, whitening);
    // 14:30-16:00 ends as the booking starts; 14:45-16:15 meets it.
    expect(['14:30', '14:45', '16:30'].map((time) => ninety[time])).toEqual(['open', 'taken', 'taken']);
    const [key] = (await redis.keys(prefix)).filter((name) => name.endsWith(`:taken:${second}:${TUESDAY}`));
    expect(await redis.members(key as string)).toContain('16:00-17:30');
  });

  it('reads a bare start an older BFF wrote to Redis as one 15-minute step taken', async () => {
    const [, second] = dentists as [number, number];
    expect((await book(b, second, '15:00', FRIDAY)).status).toBe(200);
    const key = await takenKey(second, FRIDAY);

    await redis.addMember(key as string, '09:00');

    const slots = await slotsOf(a, second, undefined, FRIDAY);
    expect([slots['08:45'], slots['09:00'], slots['09:15']]).toEqual(['open', 'taken', 'open']);
  });

  it('spreads "any dentist" bookings by what both BFFs booked: the other BFF picks the dentist with fewer that day', async () => {
    const anyDentist = async (bff: RunningBff, appointment_time: string) => {
      const res = await fetch(`${bff.api}/appointments/book`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(validBooking({ appointment_date: '2026-11-30', appointment_time })),
      });
      expect(res.status).toBe(200);
      return BffBookingResponse.parse(await res.json()).data.doctor_id;
    };

    expect([await anyDentist(a, '09:00'), await anyDentist(b, '10:00')]).toEqual(dentists.slice(0, 2));
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
