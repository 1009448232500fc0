import { describe, expect, it, onTestFinished } from 'vitest';
import { BffBookingResponse, BffErrorBody } from '../../../contract/bff.js';
import { normaliseReference } from '../../../contract/rules/bff-api.js';
import { openSitesDatabase } from '../../../bff/sites/sites-database.js';
import type { RedisLink } from '../../../platform/redis-link.js';
import { removeDb, seedClinic, startTestServer, validBooking } from '../../server/support/test-server.js';
import { serviceAvailable } from '../../support/service-available.js';
import { inspector, openLink, testKeyPrefix } from '../../support/redis.js';
import { appointmentIdOf, bffClinicFixture, startBff, type RunningBff } from '../support/bff-harness.js';
import { sitesTestDatabase } from '../sites/support/sites-test-database.js';
import { requestChange } from './support/changes-stack.js';

/**
 * Two BFFs of one clinic on one Redis (REDIS_URL) and one database: a
 * visitor's change requests and a booking's are one count across both, and
 * no Redis key names the reference or the appointment id.
 */

describe.runIf(serviceAvailable('redis'))('two BFFs on one Redis and one database', () => {
  it('count change requests per IP and per booking across both', async () => {
    const upstream = await startTestServer();
    const clinic = await seedClinic(upstream, bffClinicFixture());
    const testDatabase = await sitesTestDatabase('sqlite');
    const database = await openSitesDatabase(testDatabase.url);
    const prefix = testKeyPrefix('bff-change-limits');
    const links: RedisLink[] = [await openLink(prefix), await openLink(prefix)];
    const limits = { trustProxy: true, changeRateLimit: { limit: 3, windowMs: 3600_000 }, changeBookingRateLimit: { limit: 2, windowMs: 24 * 3600_000 } };
    const [a, b] = (await Promise.all(
      links.map((link) => startBff(upstream.api, clinic, limits, upstream.clock, link, undefined, undefined, undefined, database)),
    )) as [RunningBff, RunningBff];
    const redis = await inspector();
    onTestFinished(async () => {
      await Promise.all([a.close(), b.close()]);
      await Promise.all(links.map((link) => link.close()));
      await redis.cleanUp(prefix);
      await redis.close();
      await database.close();
      await testDatabase.remove();
      await upstream.close();
      removeDb(upstream.dbPath);
    });
    const booked = await fetch(`${a.api}/appointments/book`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(validBooking()) });
    const { reference } = BffBookingResponse.parse(await booked.json()).data;
    const ip = (n: number) => ({ 'x-forwarded-for': `192.0.2.${n}` });

    const perBooking = [
      await requestChange(a.api, { reference, kind: 'cancel' }, ip(1)),
      await requestChange(b.api, { reference, kind: 'cancel' }, ip(2)),
      await requestChange(a.api, { reference, kind: 'cancel' }, ip(3)),
    ];
    const perIp = [
      await requestChange(b.api, { reference: 'K7QF-2M9X-PA4T-Z3RW-8HNC', kind: 'cancel' }, ip(9)),
      await requestChange(a.api, { reference: 'K7QF-2M9X-PA4T-Z3RW-8HNC', kind: 'cancel' }, ip(9)),
      await requestChange(b.api, { reference: 'K7QF-2M9X-PA4T-Z3RW-8HNC', kind: 'cancel' }, ip(9)),
      await requestChange(a.api, { reference: 'K7QF-2M9X-PA4T-Z3RW-8HNC', kind: 'cancel' }, ip(9)),
    ];

    expect(perBooking.map((res) => res.status)).toEqual([201, 200, 429]);
    expect(BffErrorBody.parse(await perBooking[2]!.json()).error_code).toBe('rate_limited');
    expect(perIp.map((res) => res.status)).toEqual([404, 404, 404, 429]);
    const keys = await redis.keys(prefix);
    expect(keys.some((key) => key.includes(':rl:change_booking:'))).toBe(true);
    expect(keys.some((key) => key.includes(':rl:change:'))).toBe(true);
    const id = String(appointmentIdOf(a, reference));
    for (const key of keys.filter((one) => /:rl:change(_booking)?:/.test(one))) {
      expect(key).not.toContain(normaliseReference(reference));
      expect(key.split(':'), key).not.toContain(id);
    }
  });
});
