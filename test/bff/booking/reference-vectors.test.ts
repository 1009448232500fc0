import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { BffBookingResponse, BffStatusResponse } from '../../../contract/bff.js';
import { validBooking } from '../../server/support/test-server.js';
import { deriveReferenceKey, loadBffConfig } from '../../../bff/config.js';
import { startBff, startStubUpstream, type RunningBff } from '../support/bff-harness.js';

/**
 * References already in patients' hands must keep naming the same booking
 * after any upgrade of the BFF: fixed test vectors, made with the secret
 * below, for both formats. A change to how a reference is derived (key
 * derivation, permutation, MAC, symbols) fails here even when it would still
 * read back its own references.
 *
 * The vectors were made when the BFF derived its key from APP_SECRET_KEY;
 * the derivation is the same from BOOKING_REF_SECRET, so the key here is the
 * one a BFF derives from this secret given as BOOKING_REF_SECRET, or as
 * BOOKING_REF_SECRET_PREVIOUS (an app secret of before, which may be shorter
 * than a BOOKING_REF_SECRET must be).
 */
const SECRET = 'vector-secret-0123456789';
const SHORT_VECTORS = [
  [1, '3WBG-AZ8S-STM7-K8JQ-X961'],
  [123, '339V-WN7Q-YGPT-M7Z3-AQYK'],
  [4_294_967_295, '35CW-DF5N-Q2QK-9RTF-GD6D'],
] as const;
/** Legacy references carry a random IV, so each one is a vector of its own: these were issued for ids 123 and 2^32 + 5. */
const LEGACY_VECTORS = [
  [123, 'Szg6wJ7FoF4sCo5J7KyOP4jyCM0YI9vyA5vKp2iX6i_KYjFtRP_edQ'],
  [4_294_967_301, 'Y_bkznhyZsaFkrbHgi3oNMRQpxFezsX4r_BonC1a1pOw2J07mCPGVQ'],
] as const;

let bookedId: number;

const stub = await startStubUpstream((req, res) => {
  res.setHeader('content-type', 'application/json');
  if (req.url === '/api/v1/granttoken') return void res.end(JSON.stringify({ access_token: 'stub-token-vectors-0123456789', expires_in: 3600 }));
  if (req.url === '/api/v1/appointments/book') {
    return void res.end(JSON.stringify({ success: true, message: 'Appointment booked successfully', data: { appointment_id: bookedId } }));
  }
  const id = /^\/api\/v1\/appointments\/status\/(\d+)$/.exec(req.url)?.[1];
  res.end(JSON.stringify({ success: true, message: 'ok', data: { status: 'Scheduled', name: `Patient ${id}`, date: '2026-11-24', time: '10:00' } }));
});
const bff = await startBff(stub.api, { appKey: 'ck_vectors', secret: SECRET }, { referenceKey: deriveReferenceKey(SECRET) });
beforeEach(() => {
  stub.requests.length = 0;
});

const statusPaths = () => stub.requests.filter((req) => req.url.startsWith('/api/v1/appointments/status/')).map((req) => req.url);

async function lookUp(reference: string): Promise<BffStatusResponse> {
  const res = await fetch(`${bff.api}/appointments/status`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ reference }),
  });
  expect(res.status).toBe(200);
  return BffStatusResponse.parse(await res.json());
}

describe('a booking through the BFF', () => {
  it.each(SHORT_VECTORS)('answers appointment %d with the reference %s', async (id, reference) => {
    bookedId = id;

    const res = await fetch(`${bff.api}/appointments/book`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(validBooking({ doctor_id: 1 })),
    });

    expect(res.status).toBe(200);
    expect(BffBookingResponse.parse(await res.json()).data.reference).toBe(reference);
  });
});

describe('POST /api/appointments/status', () => {
  it.each([...SHORT_VECTORS, ...LEGACY_VECTORS])('reads appointment %d from the reference %s issued before', async (id, reference) => {
    const status = await lookUp(reference);

    expect(statusPaths()).toEqual([`/api/v1/appointments/status/${id}`]);
    expect(status.data.name).toBe(`Patient ${id}`);
  });
});

describe('a reference that is not exactly as issued', () => {
  const [, legacy] = LEGACY_VECTORS[0];
  const [, short] = SHORT_VECTORS[1];

  it.each([
    // Base64url's last character carries 4 bits nothing reads: Q and R decode alike, and only Q was issued.
    ['a legacy one spelled with other spare bits in its last character', `${legacy.slice(0, -1)}R`],
    // In its MAC (the last 16 bytes): the id inside still decrypts, so only the MAC can refuse it.
    ['a legacy one with a character of its MAC changed', `${legacy.slice(0, 40)}${legacy[40] === 'A' ? 'B' : 'A'}${legacy.slice(41)}`],
    ['a short one with a 0 put before it', `0${short}`],
  ])('answers 404 for %s, without asking upstream', async (_case, reference) => {
    const res = await fetch(`${bff.api}/appointments/status`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ reference }),
    });

    expect(res.status).toBe(404);
    expect(statusPaths()).toEqual([]);
  });
});

describe('a BFF whose BOOKING_REF_SECRET is new, with the secret of the vectors in BOOKING_REF_SECRET_PREVIOUS', () => {
  let upgraded: RunningBff;
  beforeAll(async () => {
    const config = loadBffConfig(
      { UPSTREAM_URL: stub.api, APP_KEY: 'ck_vectors', APP_SECRET_KEY: 'a-new-app-secret', BOOKING_REF_SECRET: 'a-new-booking-reference-secret-0123456789', BOOKING_REF_SECRET_PREVIOUS: SECRET },
      '/nonexistent',
    );
    upgraded = await startBff(stub.api, { appKey: 'ck_vectors', secret: 'a-new-app-secret' }, config);
  });
  afterAll(async () => {
    await upgraded.close();
  });

  it.each([...SHORT_VECTORS, ...LEGACY_VECTORS])('still reads appointment %d from the reference %s', async (id, reference) => {
    const res = await fetch(`${upgraded.api}/appointments/status`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ reference }),
    });

    expect(res.status).toBe(200);
    expect(statusPaths()).toEqual([`/api/v1/appointments/status/${id}`]);
  });

  it('makes new references with the new secret only', async () => {
    bookedId = 123;

    const res = await fetch(`${upgraded.api}/appointments/book`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(validBooking({ doctor_id: 1 })),
    });

    expect(BffBookingResponse.parse(await res.json()).data.reference).not.toBe(SHORT_VECTORS[1][1]);
  });
});
