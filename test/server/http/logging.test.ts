import { describe, expect, it } from 'vitest';
import { authenticatedCaller, seedClinic, validBooking } from '../support/test-server.js';
import { useTestServer } from '../support/use-test-server.js';

const PATIENT_NAME = 'Perpetua Quillfeather';
const PATIENT_PHONE = '+44 7700 900987';

describe('request logs', () => {
  const ctx = useTestServer({
    setup: async (server) => {
      const clinic = await seedClinic(server);
      const caller = await authenticatedCaller(server, clinic);
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
      return { clinic, token: caller.headers.authorization!.slice('Bearer '.length) };
    },
  });

  it('are JSON lines, one per request, with method, path and status', () => {
    const lines = ctx.server.logs.map((line) => JSON.parse(line) as { req?: { method: string; path: string }; res?: { statusCode: number } });
    const bookings = lines.filter((line) => line.req?.path === '/api/v1/appointments/book');
    expect(bookings.map((line) => line.res?.statusCode)).toEqual([200, 400, 400, 400]);
  });

  it.each([
    ['the app secret', () => ctx.clinic.secret],
    ['the access token', () => ctx.token],
    ['the patient name', () => PATIENT_NAME],
    ['the patient phone', () => PATIENT_PHONE],
    ['the patient name, URL-encoded', () => encodeURIComponent(PATIENT_NAME)],
    ['the phone digits', () => '7700900987'],
  ])('never contain %s', (_name, secret) => {
    expect(ctx.server.logs.length).toBeGreaterThan(5);
    for (const line of ctx.server.logs) expect(line).not.toContain(secret());
  });
});

describe('an unexpected failure', () => {
  const ctx = useTestServer();

  it('answers 500 internal_error with no stack or internal message, and logs the error server-side', async () => {
    const clinic = await seedClinic(ctx.server);
    const caller = await authenticatedCaller(ctx.server, clinic);
    // Break the storage under the running server (a rename: PostgreSQL refuses to drop a referenced table).
    await ctx.server.db.schema.alterTable('dentists').renameTo('dentists_gone').execute();

    const res = await caller.get('/dentists');

    expect(res.status).toBe(500);
    expect(await res.json()).toEqual({ success: false, message: 'Internal server error', error_code: 'internal_error' });
    const logged = ctx.server.logs.map((line) => JSON.parse(line) as { msg: string; err?: unknown });
    expect(logged.some((line) => line.msg === 'unhandled error' && /no such table: dentists|relation "dentists" does not exist/.test((line.err as { stack?: string } | undefined)?.stack ?? ''))).toBe(true);
  });
});
