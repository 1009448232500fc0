import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BffBookingResponse, BffStatusResponse } from '../../../contract/bff.js';
import { deriveReferenceKey, loadBffConfig, type BffConfig } from '../../../bff/config.js';
import { clinicCli as runClinicCli } from '../../server/support/clinic-cli.js';
import { removeDb, seedClinic, startTestServer, validBooking, type SeededClinic, type TestServer } from '../../server/support/test-server.js';
import { bffClinicFixture, startBff, type RunningBff } from '../support/bff-harness.js';

/**
 * Booking references outlive the app key: the rotation of docs/operations.md (create a new key
 * with the clinic CLI, switch the BFF to it, revoke the old one) leaves every
 * reference patients hold readable, because the reference key comes from
 * BOOKING_REF_SECRET alone. And the reference secret can be rotated too:
 * BOOKING_REF_SECRET_PREVIOUS keeps the references made with earlier ones
 * readable (the app secret of a BFF from before BOOKING_REF_SECRET was
 * required included).
 */

const REF_SECRET = 'the-clinic-booking-reference-secret-0123456789';

/** The clinic settings area (server/cli, in this process) on the test server's database, as the rotation steps of docs/operations.md run it. */
async function clinicCli(upstream: TestServer, args: string[]): Promise<Record<string, unknown>> {
  const result = await runClinicCli(`file:${upstream.dbPath}`, args, { LOG_LEVEL: 'silent' });
  expect(result.code, result.stderr).toBe(0);
  return JSON.parse(result.stdout) as Record<string, unknown>;
}

let upstream: TestServer;
let clinic: SeededClinic;
const running: RunningBff[] = [];

beforeAll(async () => {
  upstream = await startTestServer();
  clinic = await seedClinic(upstream, bffClinicFixture());
});
afterAll(async () => {
  await Promise.all(running.map((bff) => bff.close()));
  await upstream.close();
  removeDb(upstream.dbPath);
});

/** A BFF with exactly these settings, read as from its environment. */
async function bffWith(keys: { appKey: string; secret: string }, settings: Record<string, string>): Promise<RunningBff> {
  const config: BffConfig = loadBffConfig(
    { UPSTREAM_URL: upstream.api, APP_KEY: keys.appKey, APP_SECRET_KEY: keys.secret, ...settings },
    '/nonexistent/.env',
  );
  const bff = await startBff(upstream.api, keys, config);
  running.push(bff);
  return bff;
}

async function book(bff: RunningBff, patient: string, time: string): Promise<string> {
  const res = await fetch(`${bff.api}/appointments/book`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(validBooking({ patient_name: patient, appointment_time: time, doctor_id: 1 })),
  });
  expect(res.status).toBe(200);
  return BffBookingResponse.parse(await res.json()).data.reference;
}

const lookUp = (bff: RunningBff, reference: string) =>
  fetch(`${bff.api}/appointments/status`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ reference }) });

async function expectPatient(bff: RunningBff, reference: string, patient: string): Promise<void> {
  const res = await lookUp(bff, reference);
  expect(res.status).toBe(200);
  expect(BffStatusResponse.parse(await res.json()).data.name).toBe(patient);
}

describe('the app key rotation of docs/operations.md', () => {
  it('keeps a reference issued with the old key readable once the BFF runs on the new one and the old is revoked', async () => {
    const before = await bffWith(clinic, { BOOKING_REF_SECRET: REF_SECRET });
    const reference = await book(before, 'Rotation Patient', '10:00');

    // 1. A new key pair for the clinic.
    const created = await clinicCli(upstream, ['keys', 'create', '--clinic', String(clinic.careId)]);
    const next = { appKey: String(created.app_key), secret: String(created.app_secret_key) };
    // 2. The BFF switched to it: a new process with the new pair and its other settings as they were.
    await before.close();
    const after = await bffWith(next, { BOOKING_REF_SECRET: REF_SECRET });
    // 3. The old key revoked.
    expect(await clinicCli(upstream, ['keys', 'revoke', '--key', clinic.appKey])).toEqual({ revoked: clinic.appKey });
    const oldKey = await fetch(`${upstream.api}/granttoken`, { method: 'POST', headers: { 'x-app-key': clinic.appKey, 'x-app-secret-key': clinic.secret } });
    expect(oldKey.status).toBe(401);

    await expectPatient(after, reference, 'Rotation Patient');
    await expectPatient(after, await book(after, 'After Rotation', '10:15'), 'After Rotation');
  });
});

describe('BOOKING_REF_SECRET_PREVIOUS', () => {
  it('reads references made with an earlier reference secret, and makes new ones with the current one only', async () => {
    const first = await bffWith(await freshKeys(), { BOOKING_REF_SECRET: REF_SECRET });
    const older = await book(first, 'Older Secret', '11:00');

    const rotated = await bffWith(await freshKeys(), { BOOKING_REF_SECRET: 'the-next-booking-reference-secret-0123456789', BOOKING_REF_SECRET_PREVIOUS: REF_SECRET });
    const newer = await book(rotated, 'Newer Secret', '11:15');

    await expectPatient(rotated, older, 'Older Secret');
    await expectPatient(rotated, newer, 'Newer Secret');
    // Made with the new secret: the old one cannot read it.
    expect((await lookUp(first, newer)).status).toBe(404);
    // And without the ring the earlier reference is unknown.
    const withoutRing = await bffWith(await freshKeys(), { BOOKING_REF_SECRET: 'the-next-booking-reference-secret-0123456789' });
    expect((await lookUp(withoutRing, older)).status).toBe(404);
  });

  it('reads the references of a BFF from before BOOKING_REF_SECRET (its key came from the app secret) when that app secret is listed', async () => {
    const keys = await freshKeys();
    // What a BFF with BOOKING_REF_SECRET unset did: the reference key derived from APP_SECRET_KEY.
    const legacy = await startBff(upstream.api, keys, { referenceKey: deriveReferenceKey(keys.secret) });
    running.push(legacy);
    const reference = await book(legacy, 'Legacy Patient', '11:30');

    const upgraded = await bffWith(await freshKeys(), { BOOKING_REF_SECRET: REF_SECRET, BOOKING_REF_SECRET_PREVIOUS: keys.secret });

    await expectPatient(upgraded, reference, 'Legacy Patient');
  });
});

/** Another active key pair of the clinic (through the CLI, as a deployer makes one). */
async function freshKeys(): Promise<{ appKey: string; secret: string }> {
  const created = await clinicCli(upstream, ['keys', 'create', '--clinic', String(clinic.careId)]);
  return { appKey: String(created.app_key), secret: String(created.app_secret_key) };
}
