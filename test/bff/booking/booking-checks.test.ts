import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BffBookingResponse, BffErrorBody } from '../../../contract/bff.js';
import { ErrorBody } from '../../../contract/index.js';
import { validBooking } from '../../server/support/test-server.js';
import { FakeClock, TEST_NOW } from '../../support/fake-clock.js';
import { startBff, startStack, startStubUpstream, type RecordedRequest, type RunningBff, type StubUpstream } from '../support/bff-harness.js';

/**
 * The checks the BFF makes before a booking goes upstream:
 * from the clinic's time (CLINIC_TIMEZONE), its notice and horizon
 * (BOOKING_MIN_NOTICE_MINUTES, BOOKING_HORIZON_DAYS), its cached opening
 * hours, treatments and dentists and the 15-minute grid, a refusal is 400 validation_error with a reason code the widget
 * puts in words, in the reference server's own message, and nothing is sent
 * upstream. The stack's clock stands at TEST_NOW, Monday 23 November 2026
 * 09:00 in London; the fixture clinic opens 08:00-18:00 on weekdays and is
 * closed on Sunday.
 */

const TUESDAY = '2026-11-24';
let treatments: { active: number[]; inactive: number; whitening: number };

const stack = await startStack();
beforeAll(async () => {
  const rows = await stack.upstream.db
    .selectFrom('treatments')
    .select(['treatment_id', 'treatment_name', 'active'])
    .where('care_id', '=', stack.clinic.careId)
    .execute();
  treatments = {
    active: rows.filter((row) => row.active).map((row) => row.treatment_id),
    inactive: rows.find((row) => !row.active)!.treatment_id,
    // 90 minutes.
    whitening: rows.find((row) => row.treatment_name === 'Whitening')!.treatment_id,
  };
});

const book = (body: Record<string, unknown>, bff: RunningBff = stack.bff) =>
  fetch(`${bff.api}/appointments/book`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

const bookHits = () => stack.upstreamHits('/appointments/book');

/** What the reference server itself answers to the same booking (its own refusal, in its own words). */
async function serverAnswerTo(body: Record<string, unknown>): Promise<ErrorBody> {
  const api = stack.upstream.api;
  const grant = await fetch(`${api}/granttoken`, { method: 'POST', headers: { 'x-app-key': stack.clinic.appKey, 'x-app-secret-key': stack.clinic.secret } });
  const { access_token } = (await grant.json()) as { access_token: string };
  const res = await fetch(`${api}/appointments/book`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-app-key': stack.clinic.appKey, authorization: `Bearer ${access_token}` },
    body: JSON.stringify(body),
  });
  expect(res.status).toBe(400);
  return ErrorBody.parse(await res.json());
}

describe('a booking the BFF refuses before sending it upstream', () => {
  it.each([
    ['a start already past today', { appointment_date: '2026-11-23', appointment_time: '08:45' }, 'in_past'],
    ['a start at this very minute', { appointment_date: '2026-11-23', appointment_time: '09:00' }, 'in_past'],
    ['a day already past', { appointment_date: '2026-11-22', appointment_time: '10:00' }, 'in_past'],
    ['a start inside the 120 minutes of notice', { appointment_date: '2026-11-23', appointment_time: '10:45' }, 'inside_notice'],
    ['a day past the 365 days of horizon', { appointment_date: '2027-11-24' }, 'beyond_horizon'],
    ['a day the clinic is closed (Sunday)', { appointment_date: '2026-11-29' }, 'closed_day'],
    ['a start before opening', { appointment_date: TUESDAY, appointment_time: '07:45' }, 'outside_hours'],
    ['a start at closing time', { appointment_date: TUESDAY, appointment_time: '18:00' }, 'outside_hours'],
    ['a treatment that would end after closing', { appointment_date: TUESDAY, appointment_time: '17:00', treatment: 'whitening' }, 'ends_after_closing'],
    ['an unknown treatment', { treatment_id: 999_999 }, 'unknown_treatment'],
    ['an inactive treatment', { treatment: 'inactive' }, 'unknown_treatment'],
    ['an unknown dentist', { doctor_id: 999_999 }, 'unknown_dentist'],
    // Two rules broken: the one the reference server checks first is named.
    ['an unknown treatment on a Sunday', { appointment_date: '2026-11-29', treatment_id: 999_999 }, 'unknown_treatment'],
  ])('answers %s with 400 and its reason, in the server\'s words, sending nothing upstream', async (_case, change, reason) => {
    const { treatment, ...fields } = change as Record<string, unknown> & { treatment?: 'whitening' | 'inactive' };
    const body = validBooking({ ...fields, ...(treatment ? { treatment_id: treatments[treatment] } : {}) });
    const before = bookHits();

    const res = await book(body);

    expect(res.status).toBe(400);
    const refusal = BffErrorBody.parse(await res.json());
    expect(bookHits()).toBe(before);
    expect(refusal).toEqual({ success: false, message: (await serverAnswerTo(body)).message, error_code: 'validation_error', reason });
  });

  it('refuses a start off the 15-minute grid with 400 off_grid, sending nothing upstream (the server would take it)', async () => {
    const before = bookHits();

    const res = await book(validBooking({ appointment_time: '10:05' }));

    expect(res.status).toBe(400);
    expect(BffErrorBody.parse(await res.json())).toMatchObject({ error_code: 'validation_error', reason: 'off_grid' });
    expect(bookHits()).toBe(before);
  });

  it('books a start exactly the notice ahead, and the last day of the horizon', async () => {
    expect((await book(validBooking({ appointment_date: '2026-11-23', appointment_time: '11:00' }))).status).toBe(200);
    expect((await book(validBooking({ appointment_date: '2027-11-23', appointment_time: '11:00' }))).status).toBe(200);
  });

  it('books what passes every check, with a treatment that ends at closing time', async () => {
    const res = await book(validBooking({ appointment_time: '16:30', treatment_id: treatments.whitening }));

    expect(res.status).toBe(200);
    expect(BffBookingResponse.parse(await res.json()).data.reference).toEqual(expect.any(String));
  });

  it('gives the booking limit its hit back for each: a refused booking books nothing', async () => {
    const limited = await startBff(stack.upstream.api, stack.clinic, { bookingRateLimit: { limit: 1, windowMs: 60_000 } }, stack.upstream.clock);
    try {
      const refusals = [];
      for (const appointment_date of ['2026-11-22', '2026-11-29', '2026-11-22']) refusals.push((await book(validBooking({ appointment_date }), limited)).status);

      expect(refusals).toEqual([400, 400, 400]);
      expect((await book(validBooking({ appointment_time: '15:00' }), limited)).status).toBe(200);
      expect((await book(validBooking({ appointment_time: '15:15' }), limited)).status).toBe(429);
    } finally {
      await limited.close();
    }
  });

  it('reads the content it checks against once for many bookings at a time, and again only after the cache TTL', async () => {
    const time = new FakeClock(TEST_NOW);
    const fresh = await startBff(stack.upstream.api, stack.clinic, {}, time);
    const PATHS = ['/website', '/dentists', '/treatments'];
    const refused = (appointment_time: string) => book(validBooking({ appointment_time, treatment_id: 999_999 }), fresh);
    try {
      const before = PATHS.map((path) => stack.upstreamHits(path));
      const readsSince = () => PATHS.map((path, i) => stack.upstreamHits(path) - before[i]!);

      const answers = await Promise.all(['10:00', '10:15', '10:30', '10:45'].map(refused));
      answers.push(await refused('11:00'));
      const withinTtl = readsSince();
      time.advance(60_000 + 1);
      answers.push(await refused('11:15'));

      expect(answers.map((res) => res.status)).toEqual([400, 400, 400, 400, 400, 400]);
      expect(withinTtl).toEqual([1, 1, 1]);
      expect(readsSince()).toEqual([2, 2, 2]);
    } finally {
      await fresh.close();
    }
  });
});

describe('a keyed re-send once time has moved its booking inside the notice', () => {
  it('goes upstream and gets the booking accepted before, for a dentist and for any dentist; a new booking is refused', async () => {
    const time = new FakeClock(TEST_NOW);
    const bff = await startBff(stack.upstream.api, stack.clinic, {}, time);
    const keyed = (body: Record<string, unknown>, key?: string) =>
      fetch(`${bff.api}/appointments/book`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(key ? { 'idempotency-key': key } : {}) },
        body: JSON.stringify(body),
      });
    try {
      const named = validBooking({ patient_name: 'Named Resend', appointment_date: '2026-11-23', appointment_time: '11:30', doctor_id: 1 });
      const anyDentist = validBooking({ patient_name: 'Any Resend', appointment_date: '2026-11-23', appointment_time: '11:45' });
      const first = await keyed(named, 'notice-named');
      const second = await keyed(anyDentist, 'notice-any');
      expect([first.status, second.status]).toEqual([200, 200]);
      const references = [BffBookingResponse.parse(await first.json()).data, BffBookingResponse.parse(await second.json()).data];
      time.advance(50 * 60_000); // 09:50: the earliest start is now 11:50

      const resent = [await keyed(named, 'notice-named'), await keyed(anyDentist, 'notice-any')];

      expect(resent.map((res) => [res.status, res.headers.get('idempotent-replayed')])).toEqual([[200, 'true'], [200, 'true']]);
      expect(await Promise.all(resent.map(async (res) => BffBookingResponse.parse(await res.json()).data))).toEqual(references);
      for (const [body, key] of [[named, undefined], [named, 'notice-new']] as const) {
        const refused = await keyed({ ...body, patient_name: 'Someone New' }, key);
        expect(refused.status).toBe(400);
        expect(BffErrorBody.parse(await refused.json()).reason).toBe('inside_notice');
      }
    } finally {
      await bff.close();
    }
  });
});

describe('a booking whose checks cannot read the clinic content (stub upstream)', () => {
  let stub: StubUpstream;
  let bff: RunningBff;
  const booked = (req: RecordedRequest) => req.url === '/api/v1/appointments/book';

  beforeAll(async () => {
    stub = await startStubUpstream((req: RecordedRequest, res: ServerResponse) => {
      res.setHeader('content-type', 'application/json');
      if (req.url === '/api/v1/granttoken') return void res.end(JSON.stringify({ access_token: 'stub-token-checks-0123456789', expires_in: 3600 }));
      if (!booked(req)) {
        res.statusCode = 500;
        return void res.end(JSON.stringify({ success: false, message: 'down', error_code: 'internal_error' }));
      }
      res.end(JSON.stringify({ success: true, message: 'Appointment booked successfully', data: { appointment_id: 7 } }));
    });
    bff = await startBff(stub.api, { appKey: 'ck_checks', secret: 'checks-secret-0123456789' });
  });
  afterAll(async () => {
    await bff.close();
    await stub.close();
  });

  it('goes upstream as the patient sent it, which decides', async () => {
    const body = validBooking({ appointment_date: '2026-11-29', doctor_id: 3, treatment_id: 4 });

    const res = await book(body, bff);

    expect(res.status).toBe(200);
    expect(stub.requests.filter(booked).map((req) => JSON.parse(req.body) as unknown)).toEqual([body]);
  });

  it('still refuses a start already past, which needs nothing read', async () => {
    const sent = stub.requests.filter(booked).length;

    const res = await book(validBooking({ appointment_date: '2026-11-22' }), bff);

    expect(res.status).toBe(400);
    expect(BffErrorBody.parse(await res.json()).reason).toBe('in_past');
    expect(stub.requests.filter(booked)).toHaveLength(sent);
  });
});
