import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ErrorBody } from '../../../contract/index.js';
import { BffBookingResponse, BffStatusResponse } from '../../../contract/bff.js';
import { formatReference, REFERENCE_ALPHABET } from '../../../contract/rules/bff-api.js';
import { validBooking } from '../../server/support/test-server.js';
import { deriveReferenceKey, loadBffConfig } from '../../../bff/config.js';
import { startBff, startStubUpstream, type RunningBff } from '../support/bff-harness.js';

/**
 * References already in patients' hands must keep naming the same booking
 * after any upgrade of the BFF: fixed test vectors, made with the secret
 * below, for every format issued so far. A change to how a reference is
 * derived (key derivation, cipher, MAC, symbols) fails here even when it would
 * still read back its own references.
 *
 * The vectors were made when the BFF derived its key from APP_SECRET_KEY;
 * the derivation is the same from BOOKING_REF_SECRET, so the key here is the
 * one a BFF derives from this secret given as BOOKING_REF_SECRET, or as
 * BOOKING_REF_SECRET_PREVIOUS (an app secret of before, which may be shorter
 * than a BOOKING_REF_SECRET must be).
 */
const SECRET = 'vector-secret-0123456789';
/** Short references as issued now (format marker 2, the id under FF1): the first symbol is 4 or 5. */
const FF1_VECTORS = [
  [1, '586X-ZZDJ-Y7V3-ZWE4-GPM2'],
  [123, '5AB7-96CQ-JXH8-YJCD-VRDJ'],
  [2_147_483_648, '55G2-8750-92HY-YZ3D-85WY'],
  [4_294_967_295, '5V4P-V68N-V64Z-SDT0-27MW'],
] as const;
/** Short references issued before FF1 (format marker 1, the id under a 4-round Feistel network): read, no longer issued. */
const FEISTEL_V1_VECTORS = [
  [1, '3WBG-AZ8S-STM7-K8JQ-X961'],
  [2, '2HKJ-TGXH-PMHC-76B9-BJ76'],
  [123, '339V-WN7Q-YGPT-M7Z3-AQYK'],
  [65_536, '333E-7E6M-8NM7-JR8B-83CT'],
  [2_147_483_648, '3QBH-CXS0-9X0B-CYFB-2VXH'],
  [4_294_967_295, '35CW-DF5N-Q2QK-9RTF-GD6D'],
] as const;
/** Legacy references carry a random IV, so each one is a vector of its own: these were issued for ids 123 and 2^32 + 5. */
const LEGACY_VECTORS = [
  [123, 'Szg6wJ7FoF4sCo5J7KyOP4jyCM0YI9vyA5vKp2iX6i_KYjFtRP_edQ'],
  [4_294_967_301, 'Y_bkznhyZsaFkrbHgi3oNMRQpxFezsX4r_BonC1a1pOw2J07mCPGVQ'],
] as const;
const ISSUED_BEFORE = [...FF1_VECTORS, ...FEISTEL_V1_VECTORS, ...LEGACY_VECTORS];

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
// No status limit: every symbol of two references is changed in turn.
const bff = await startBff(stub.api, { appKey: 'ck_vectors', secret: SECRET }, { referenceKey: deriveReferenceKey(SECRET), statusRateLimit: { limit: 100_000, windowMs: 60_000 } });
beforeEach(() => {
  stub.requests.length = 0;
});

const statusPaths = () => stub.requests.filter((req) => req.url.startsWith('/api/v1/appointments/status/')).map((req) => req.url);

const postStatus = (reference: string, to: RunningBff = bff) =>
  fetch(`${to.api}/appointments/status`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ reference }) });

async function expectNotFoundWithoutUpstream(reference: string): Promise<void> {
  const res = await postStatus(reference);

  expect(res.status).toBe(404);
  expect(ErrorBody.parse(await res.json()).error_code).toBe('not_found');
  expect(statusPaths()).toEqual([]);
}

async function lookUp(reference: string): Promise<BffStatusResponse> {
  const res = await postStatus(reference);
  expect(res.status).toBe(200);
  return BffStatusResponse.parse(await res.json());
}

describe('a booking through the BFF', () => {
  it.each(FF1_VECTORS)('answers appointment %d with the FF1 reference %s', async (id, reference) => {
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
  it.each(ISSUED_BEFORE)('reads appointment %d from the reference %s issued before', async (id, reference) => {
    const status = await lookUp(reference);

    expect(statusPaths()).toEqual([`/api/v1/appointments/status/${id}`]);
    expect(status.data.name).toBe(`Patient ${id}`);
  });
});

describe('a reference that is not exactly as issued', () => {
  const [, legacy] = LEGACY_VECTORS[0];
  const [, short] = FF1_VECTORS[1];
  const [, feistel] = FEISTEL_V1_VECTORS[2];

  it.each([
    // Base64url's last character carries 4 bits nothing reads: Q and R decode alike, and only Q was issued.
    ['a legacy one spelled with other spare bits in its last character', `${legacy.slice(0, -1)}R`],
    // In its MAC (the last 16 bytes): the id inside still decrypts, so only the MAC can refuse it.
    ['a legacy one with a character of its MAC changed', `${legacy.slice(0, 40)}${legacy[40] === 'A' ? 'B' : 'A'}${legacy.slice(41)}`],
    ['a short one with a 0 put before it', `0${short}`],
    // Its first symbol 3 made 4: the marker says FF1 and the ciphertext is intact, but the MAC covers the marker.
    ['a Feistel one moved to the FF1 format', `4${feistel.slice(1)}`],
  ])('answers 404 for %s, without asking upstream', async (_case, reference) => {
    await expectNotFoundWithoutUpstream(reference);
  });

  it.each([FF1_VECTORS[0], FEISTEL_V1_VECTORS[0]])('answers 404 for the reference of appointment %d (%s) with any one symbol changed', async (_id, reference) => {
    const symbols = reference.replaceAll('-', '');
    for (let index = 0; index < symbols.length; index++) {
      for (const delta of [1, 16]) {
        const changed = REFERENCE_ALPHABET[(REFERENCE_ALPHABET.indexOf(symbols[index]!) + delta) % 32]!;
        await expectNotFoundWithoutUpstream(formatReference(symbols.slice(0, index) + changed + symbols.slice(index + 1)));
      }
    }
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

  it.each(ISSUED_BEFORE)('still reads appointment %d from the reference %s', async (id, reference) => {
    const res = await postStatus(reference, upgraded);

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

    expect(BffBookingResponse.parse(await res.json()).data.reference).not.toBe(FF1_VECTORS[1][1]);
  });
});
