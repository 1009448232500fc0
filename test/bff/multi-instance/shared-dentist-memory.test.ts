import { createServer, request, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BffBookingResponse } from '../../../contract/bff.js';
import { ErrorBody } from '../../../contract/index.js';
import type { RedisLink } from '../../../platform/redis-link.js';
import { KEY_MEMORY_TTL_MS } from '../../../bff/booking/dentist-memory.js';
import { FakeClock, TEST_NOW } from '../../support/fake-clock.js';
import { removeDb, seedClinic, startTestServer, validBooking, type SeededClinic, type TestServer } from '../../server/support/test-server.js';
import { appointmentIdOf, bffClinicFixture, closeServer, listen, startBff, type RunningBff } from '../support/bff-harness.js';
import { serviceAvailable } from '../../support/service-available.js';
import { HeldCalls } from '../support/held-calls.js';
import { inspector, openLink, testKeyPrefix } from '../../support/redis.js';

/**
 * Two BFFs of one clinic behind one load balancer, on one Redis (REDIS_URL),
 * in front of the real reference server: an "any dentist" booking re-sent with
 * the same Idempotency-Key is the same booking whichever BFF the re-send
 * reaches, though the dentist it booked is known taken by both (shared taken
 * slots): the BFF that did not make the first try still tries that dentist
 * first, and its derived key replays the booking instead of booking the next
 * dentist.
 */

type Inspector = Awaited<ReturnType<typeof inspector>>;

const WEDNESDAY = '2026-11-25';

const book = (bff: RunningBff, body: unknown, key?: string) =>
  fetch(`${bff.api}/appointments/book`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(key ? { 'idempotency-key': key } : {}) },
    body: JSON.stringify(body),
  });

/**
 * Forwards everything to the reference server at once; can hold the server's
 * answer to the next booking (the server has committed it), so the BFF times
 * out and answers 504 booking_outcome_unknown.
 */
async function holdingProxy(upstreamApi: string) {
  let holdNext = false;
  let answered: () => void = () => undefined;
  const calls = new HeldCalls();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const hold = holdNext && req.url?.endsWith('/appointments/book') === true;
      if (hold) holdNext = false;
      const done = hold ? answered : () => undefined;
      const target = new URL(`${upstreamApi}${req.url!.replace(/^\/api\/v1/, '')}`);
      const forwarded = request(target, { method: req.method, headers: { ...req.headers, host: target.host } }, (upstreamRes) => {
        const body: Buffer[] = [];
        upstreamRes.on('data', (chunk: Buffer) => body.push(chunk));
        upstreamRes.on('end', () => {
          done();
          void (hold ? calls.hold('answer') : Promise.resolve()).then(() => {
            if (res.destroyed) return;
            res.writeHead(upstreamRes.statusCode ?? 502, upstreamRes.headers);
            res.end(Buffer.concat(body));
          });
        });
      });
      forwarded.on('error', () => res.destroy());
      forwarded.end(Buffer.concat(chunks));
    });
  });
  const base = await listen(server);
  return {
    api: `${base}/api/v1`,
    /** Holds the server's answer to the next booking until release(); resolves once the server has answered it. */
    holdNextBookingAnswer(): Promise<void> {
      holdNext = true;
      return new Promise((resolve) => (answered = resolve));
    },
    /** Lets the held answer go on (to a BFF that has given up on it by then). */
    release: () => calls.releaseOne('answer'),
    async close() {
      calls.release('answer');
      await closeServer(server);
    },
  };
}

describe.runIf(serviceAvailable('redis'))('an "any dentist" booking re-sent through the other BFF', () => {
  const prefix = testKeyPrefix('bff-dentist-memory');
  let upstream: TestServer;
  let clinic: SeededClinic;
  let proxy: Awaited<ReturnType<typeof holdingProxy>>;
  const links: RedisLink[] = [];
  let a: RunningBff;
  let b: RunningBff;
  let dentists: number[];
  let redis: Inspector;

  beforeAll(async () => {
    upstream = await startTestServer();
    clinic = await seedClinic(upstream, bffClinicFixture());
    proxy = await holdingProxy(upstream.api);
    for (let i = 0; i < 2; i++) links.push(await openLink(prefix));
    [a, b] = (await Promise.all(
      links.map((link) => startBff(proxy.api, clinic, { bookingTimeoutMs: 400 }, new FakeClock(TEST_NOW), link)),
    )) as [RunningBff, RunningBff];
    dentists = ((await (await fetch(`${a.api}/dentists`)).json()) as { data: { doctor_id: number }[] }).data.map((d) => d.doctor_id);
    redis = await inspector();
  });
  afterAll(async () => {
    await Promise.all([a, b].map((bff) => bff.close()));
    await Promise.all(links.map((link) => link.close()));
    await proxy.close();
    await upstream.close();
    removeDb(upstream.dbPath);
    await redis.cleanUp(prefix);
    await redis.close();
  });

  const appointmentsOf = (patient: string) =>
    upstream.db.selectFrom('appointments').select(['appointment_id', 'doctor_id', 'appointment_time']).where('patient_name', '=', patient).execute();

  it('answers the re-send with the same appointment (replayed), and upstream holds one appointment for the patient', async () => {
    const [first] = dentists as [number];
    const booking = validBooking({ patient_name: 'Resent Elsewhere', appointment_time: '10:00' });
    const made = await book(a, booking, 'resent-elsewhere-key');
    expect(made.status).toBe(200);
    const original = BffBookingResponse.parse(await made.json()).data;
    expect(original.doctor_id).toBe(first);

    const resent = await book(b, booking, 'resent-elsewhere-key');

    expect(resent.status).toBe(200);
    expect(await appointmentsOf('Resent Elsewhere')).toEqual([
      { appointment_id: appointmentIdOf(a, original.reference), doctor_id: first, appointment_time: '10:00' },
    ]);
    expect(BffBookingResponse.parse(await resent.json()).data).toEqual(original);
    expect(resent.headers.get('idempotent-replayed')).toBe('true');
  });

  it('after a 504 on one BFF, and the slot learnt taken meanwhile, gives the re-send on the other the booking the 504 hid', async () => {
    const [first] = dentists as [number];
    // Another day than the first test's, where the first dentist has no more bookings known than the second.
    const booking = validBooking({ patient_name: 'Unknown Outcome', appointment_date: WEDNESDAY, appointment_time: '10:30' });
    const committed = proxy.holdNextBookingAnswer();
    const unknown = await book(a, booking, 'unknown-outcome-key');
    expect(unknown.status).toBe(504);
    expect(ErrorBody.parse(await unknown.json()).error_code).toBe('booking_outcome_unknown');
    proxy.release();
    await committed;
    // Another patient asks for that dentist at that time: upstream's 409 marks the slot taken for both BFFs.
    expect((await book(b, validBooking({ patient_name: 'Someone Else', appointment_date: WEDNESDAY, appointment_time: '10:30', doctor_id: first }))).status).toBe(409);

    const resent = await book(b, booking, 'unknown-outcome-key');

    expect(resent.status).toBe(200);
    const { reference, doctor_id } = BffBookingResponse.parse(await resent.json()).data;
    expect(await appointmentsOf('Unknown Outcome')).toEqual([{ appointment_id: appointmentIdOf(b, reference), doctor_id: first, appointment_time: '10:30' }]);
    expect(doctor_id).toBe(first);
    expect(resent.headers.get('idempotent-replayed')).toBe('true');
  });

  it("keeps in Redis, under the clinic's namespace, only a hash of each patient key and its dentist's id, for KEY_MEMORY_TTL_MS", async () => {
    const dentistKeys = async () => (await redis.keys(prefix)).filter((key) => key.includes(':dentist:'));
    const before = await dentistKeys();
    // A day of its own: the other tests count on what the BFFs know of theirs.
    const made = await book(a, validBooking({ patient_name: 'Remembered Key', appointment_date: '2026-11-27', appointment_time: '14:00' }), 'remembered-key');
    expect(made.status).toBe(200);
    const { doctor_id } = BffBookingResponse.parse(await made.json()).data;

    const keys = (await dentistKeys()).filter((key) => !before.includes(key));

    expect(keys).toHaveLength(1);
    for (const key of keys) {
      expect(key).toMatch(/^test:.+:bff:[0-9a-f]{16}:dentist:[A-Za-z0-9_-]{43}$/);
      expect(key).not.toMatch(/remembered/);
      expect(Number(await redis.get(key))).toBe(doctor_id);
      const ttl = await redis.pttl(key);
      expect(ttl).toBeGreaterThan(KEY_MEMORY_TTL_MS - 60_000);
      expect(ttl).toBeLessThanOrEqual(KEY_MEMORY_TTL_MS);
    }
  });
});
