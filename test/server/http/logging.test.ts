import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  authenticatedCaller,
  removeDb,
  seedClinic,
  startTestServer,
  validBooking,
  type SeededClinic,
  type TestServer,
} from '../support/test-server.js';

const PATIENT_NAME = 'Perpetua Quillfeather';
const PATIENT_PHONE = '+44 7700 900987';

describe('request logs', () => {
  let server: TestServer;
  let clinic: SeededClinic;
  let token: string;

  beforeAll(async () => {
    server = await startTestServer();
    clinic = await seedClinic(server);
    const caller = await authenticatedCaller(server, clinic);
    token = caller.headers.authorization!.slice('Bearer '.length);
    const booking = validBooking({ patient_name: PATIENT_NAME, patient_phone: PATIENT_PHONE });
    // A success, a rule refusal, a validation error, malformed JSON quoting the
    // name, and a query string carrying personal data: all of them logged.
    await caller.post('/appointments/book', booking);
    await caller.post('/appointments/book', { ...booking, appointment_date: '2020-01-01' });
    await caller.post('/appointments/book', { ...booking, patient_phone: 'x' });
    await caller.post('/appointments/book', `{"patient_name": "${PATIENT_NAME}", "patient_phone": "${PATIENT_PHONE}",`);
    await caller.get(`/treatments?name=${encodeURIComponent(PATIENT_NAME)}&phone=${encodeURIComponent(PATIENT_PHONE)}`);
    await fetch(`${server.api}/granttoken`, {
      method: 'POST',
      headers: { 'x-app-key': clinic.appKey, 'x-app-secret-key': `${clinic.secret}-wrong` },
    });
  });
  afterAll(async () => {
    await server.close();
    removeDb(server.dbPath);
  });

  it('are JSON lines, one per request, with method, path and status', () => {
    const lines = server.logs.map((line) => JSON.parse(line) as { req?: { method: string; path: string }; res?: { statusCode: number } });
    const bookings = lines.filter((line) => line.req?.path === '/api/v1/appointments/book');
    expect(bookings.map((line) => line.res?.statusCode)).toEqual([200, 400, 400, 400]);
  });

  it.each([
    ['the app secret', () => clinic.secret],
    ['the access token', () => token],
    ['the patient name', () => PATIENT_NAME],
    ['the patient phone', () => PATIENT_PHONE],
    ['the patient name, URL-encoded', () => encodeURIComponent(PATIENT_NAME)],
    ['the phone digits', () => '7700900987'],
  ])('never contain %s', (_name, secret) => {
    expect(server.logs.length).toBeGreaterThan(5);
    for (const line of server.logs) expect(line).not.toContain(secret());
  });
});

describe('an unexpected failure', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server.close().catch(() => undefined);
    removeDb(server.dbPath);
  });

  it('answers 500 internal_error with no stack or internal message, and logs the error server-side', async () => {
    const clinic = await seedClinic(server);
    const caller = await authenticatedCaller(server, clinic);
    // Break the storage under the running server.
    await server.db.schema.dropTable('dentists').execute();

    const res = await caller.get('/dentists');

    expect(res.status).toBe(500);
    expect(await res.json()).toEqual({ success: false, message: 'Internal server error', error_code: 'internal_error' });
    const logged = server.logs.map((line) => JSON.parse(line) as { msg: string; err?: unknown });
    expect(logged.some((line) => line.msg === 'unhandled error' && (line.err as { stack?: string } | undefined)?.stack?.includes('no such table: dentists') === true)).toBe(true);
  });
});
