import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BffBookingResponse } from '../../../contract/bff.js';
import { idempotencyKeyReused } from '../../../contract/errors.js';
import type { RedisLink } from '../../../platform/redis-link.js';
import { KEY_MEMORY_TTL_MS } from '../../../bff/booking/dentist-memory.js';
import { FakeClock, TEST_NOW } from '../../support/fake-clock.js';
import { expectError } from '../../support/expect-error.js';
import { removeDb, seedClinic, startTestServer, validBooking, type SeededClinic, type TestServer } from '../../server/support/test-server.js';
import { BFF_FIXTURE_DEFAULT_MINUTES, bffClinicFixture, fixtureIds, startBff, type RunningBff } from '../support/bff-harness.js';
import { serviceAvailable } from '../../support/service-available.js';
import { inspector, openLink, testKeyPrefix } from '../../support/redis.js';

/**
 * Two BFFs of one clinic on one Redis (REDIS_URL): the body a patient's key
 * was first sent with binds it on both, so a re-send reaching the other BFF
 * with another body is refused there as on the first: 422 for "any dentist"
 * after a named dentist, inside_notice for another patient inside the
 * notice. Both ask 48 hours of notice, the clinic 2; the clock stands at
 * Monday 23 November 2026 09:00 in London.
 */

const TUESDAY = '2026-11-24';
const THURSDAY = '2026-11-26';

const book = (bff: RunningBff, body: unknown, key: string) =>
  fetch(`${bff.api}/appointments/book`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'idempotency-key': key },
    body: JSON.stringify(body),
  });

describe.runIf(serviceAvailable('redis'))("a patient's key bound to its first body, across two BFFs on one Redis", () => {
  const prefix = testKeyPrefix('bff-key-bindings');
  let upstream: TestServer;
  let clinic: SeededClinic;
  const links: RedisLink[] = [];
  let a: RunningBff;
  let b: RunningBff;
  let redis: Awaited<ReturnType<typeof inspector>>;
  let named: Record<string, unknown>;

  beforeAll(async () => {
    upstream = await startTestServer();
    clinic = await seedClinic(upstream, bffClinicFixture());
    for (let i = 0; i < 2; i++) links.push(await openLink(prefix));
    const bookingRules = { minNoticeMinutes: 48 * 60, horizonDays: 365, defaultDurationMinutes: BFF_FIXTURE_DEFAULT_MINUTES };
    [a, b] = (await Promise.all(links.map((link) => startBff(upstream.api, clinic, { bookingRules }, new FakeClock(TEST_NOW), link)))) as [
      RunningBff,
      RunningBff,
    ];
    const { dentists } = await fixtureIds(a);
    named = validBooking({ patient_name: 'Bound Elsewhere', appointment_date: THURSDAY, appointment_time: '10:00', doctor_id: dentists[0] });
    redis = await inspector();
  });
  afterAll(async () => {
    await Promise.all([a, b].map((bff) => bff.close()));
    await Promise.all(links.map((link) => link.close()));
    await upstream.close();
    removeDb(upstream.dbPath);
    await redis.cleanUp(prefix);
    await redis.close();
  });

  const appointmentsOf = (patient: string) => upstream.db.selectFrom('appointments').select('appointment_id').where('patient_name', '=', patient).execute();

  it('refuses on the other BFF "any dentist" and another patient inside the notice; replays the same body there', async () => {
    const made = await book(a, named, 'bound-elsewhere-key');
    expect(made.status).toBe(200);
    const original = BffBookingResponse.parse(await made.json()).data;
    const { doctor_id: _dentist, ...anyDentist } = named;

    const asAnyDentist = await book(b, anyDentist, 'bound-elsewhere-key');
    const intruder = await book(b, { ...named, patient_name: 'Intruder Elsewhere', appointment_date: TUESDAY }, 'bound-elsewhere-key');
    const resent = await book(b, named, 'bound-elsewhere-key');

    await expectError(asAnyDentist, 422, 'idempotency_key_reused', idempotencyKeyReused().message);
    await expectError(intruder, 400, { error_code: 'validation_error', reason: 'inside_notice' });
    expect(resent.headers.get('idempotent-replayed')).toBe('true');
    expect(BffBookingResponse.parse(await resent.json()).data).toEqual(original);
    expect(await appointmentsOf('Bound Elsewhere')).toHaveLength(1);
    expect(await appointmentsOf('Intruder Elsewhere')).toEqual([]);
  });

  it('keeps in Redis only a hash of the key and a keyed fingerprint of the body, for KEY_MEMORY_TTL_MS', async () => {
    const bindings = async () => (await redis.keys(prefix)).filter((key) => key.includes(':key-body:'));
    const before = await bindings();
    const made = await book(a, { ...named, patient_name: 'Hashed Key', appointment_time: '15:00' }, 'hashed-key-check');
    expect(made.status).toBe(200);

    const keys = (await bindings()).filter((key) => !before.includes(key));

    expect(keys).toHaveLength(1);
    const [key] = keys as [string];
    expect(key).toMatch(/^test:.+:bff:[0-9a-f]{16}:key-body:[A-Za-z0-9_-]{43}$/);
    expect(key).not.toContain('hashed-key-check');
    expect(await redis.get(key)).toMatch(/^accepted\.[A-Za-z0-9_-]{43}$/);
    const ttl = await redis.pttl(key);
    expect(ttl).toBeGreaterThan(KEY_MEMORY_TTL_MS - 60_000);
    expect(ttl).toBeLessThanOrEqual(KEY_MEMORY_TTL_MS);
  });
});
