import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BffBookingResponse, BffStatusResponse } from '../../../contract/bff.js';
import { FakeClock, TEST_NOW } from '../../support/fake-clock.js';
import { validBooking } from '../../server/support/test-server.js';
import { startBff, startStubUpstream, type RecordedRequest, type RunningBff } from '../support/bff-harness.js';
import { expectError } from '../../support/expect-error.js';

/**
 * How the BFF forwards bookings and status lookups, against a stub upstream
 * that books like the reference server (one appointment per Idempotency-Key,
 * replayed with Idempotent-Replayed) and whose dentists and answers each test
 * sets: what is relayed and what is refused, the keys derived for "any
 * dentist", what a re-send goes to, and how long a booking's details are kept.
 */

interface Upstream {
  /** The dentists GET /dentists lists, in order. */
  dentists: number[];
  /** Dentists whose slot upstream answers 409, and one whose booking it never answers. */
  busy: number[];
  silent?: number;
  /** Instead of booking: this status and body. */
  bookingAnswer?: { status: number; body: unknown };
  statusAnswer?: { status: number; body: unknown };
}

let upstream: Upstream;
let bff: RunningBff;
let time: FakeClock;
let nextId = 900;
const bookedByKey = new Map<string, number>();

const dentist = (doctor_id: number) => ({
  doctor_id,
  doctor_name: `Dr ${doctor_id}`,
  specialization: 'General',
  qualification: 'DDS',
  experience_years: 5,
  consultation_fee: '50.00',
  signature_image_url: '',
});

const json = (res: import('node:http').ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
};

async function answer(req: RecordedRequest, res: import('node:http').ServerResponse): Promise<void> {
  if (req.url === '/api/v1/granttoken') return json(res, 200, { access_token: 'stub-token-forwarding-0123456789', expires_in: 3600 });
  if (req.url === '/api/v1/dentists') return json(res, 200, { success: true, data: upstream.dentists.map(dentist) });
  if (req.url.startsWith('/api/v1/appointments/status/')) {
    return json(res, upstream.statusAnswer?.status ?? 200, upstream.statusAnswer?.body ?? { success: true, message: 'ok', data: { status: 'Scheduled', name: 'Jane Doe', date: '2026-11-24', time: '10:00' } });
  }
  if (req.url !== '/api/v1/appointments/book') return json(res, 404, { success: false, message: 'Route not found', error_code: 'not_found' });
  if (upstream.bookingAnswer) return json(res, upstream.bookingAnswer.status, upstream.bookingAnswer.body);
  const { doctor_id } = JSON.parse(req.body) as { doctor_id?: number };
  if (doctor_id !== undefined && upstream.busy.includes(doctor_id)) {
    return json(res, 409, { success: false, message: 'This dentist is already booked at that date and time; choose another time', error_code: 'slot_unavailable' });
  }
  // Never answered: the BFF's booking timeout answers instead (the stub's connections go when it closes).
  if (doctor_id !== undefined && doctor_id === upstream.silent) return;
  const key = req.headers['idempotency-key'] as string | undefined;
  const replayed = key !== undefined && bookedByKey.has(key);
  const id = replayed ? bookedByKey.get(key)! : nextId++;
  if (key) bookedByKey.set(key, id);
  json(res, 200, { success: true, message: 'Appointment booked successfully', data: { appointment_id: id } }, replayed ? { 'idempotent-replayed': 'true' } : {});
}

const stub = await startStubUpstream(answer);
beforeEach(async () => {
  upstream = { dentists: [1, 2], busy: [] };
  stub.requests.length = 0;
  time = new FakeClock(TEST_NOW);
  bff = await startBff(stub.api, { appKey: 'ck_forwarding', secret: 'forwarding-secret-0123456789' }, { bookingTimeoutMs: 300 }, time);
});
afterEach(async () => {
  await bff.close();
});

const book = (body: Record<string, unknown>, key?: string) =>
  fetch(`${bff.api}/appointments/book`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(key ? { 'idempotency-key': key } : {}) },
    body: JSON.stringify(body),
  });

async function booked(body: Record<string, unknown>, key?: string): Promise<BffBookingResponse['data']> {
  const res = await book(body, key);
  expect(res.status).toBe(200);
  return BffBookingResponse.parse(await res.json()).data;
}

const lookUp = (reference: string) =>
  fetch(`${bff.api}/appointments/status`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ reference }) });

/** What the BFF logged as the upstream's failure (`upstream` of each "upstream unavailable" warning). */
const upstreamWarnings = () =>
  bff.logs.map((line) => JSON.parse(line) as { msg?: string; upstream?: string }).filter((line) => line.msg === 'upstream unavailable').map((line) => line.upstream);

const forwardedKeys = () => stub.requests.filter((req) => req.url === '/api/v1/appointments/book').map((req) => req.headers['idempotency-key']);

describe('a booking with a dentist named', () => {
  it('answers without Idempotent-Replayed the first time, and with it when upstream replays', async () => {
    const first = await book(validBooking({ doctor_id: 1 }), 'named-1');
    const again = await book(validBooking({ doctor_id: 1 }), 'named-1');

    expect(first.headers.get('idempotent-replayed')).toBeNull();
    expect(again.headers.get('idempotent-replayed')).toBe('true');
  });

  it.each([
    [413, 'payload_too_large'],
    [415, 'unsupported_media_type'],
    [422, 'idempotency_key_reused'],
    [400, 'validation_error'],
  ])('relays an upstream %d as itself, with its error code and message', async (status, code) => {
    upstream.bookingAnswer = { status, body: { success: false, message: `Upstream says ${status}`, error_code: code } };

    const body = await expectError(await book(validBooking({ doctor_id: 1 })), status, code);

    expect(body.message).toBe(`Upstream says ${status}`);
  });

  it('passes on at most 500 characters of an upstream message', async () => {
    upstream.bookingAnswer = { status: 400, body: { success: false, message: 'x'.repeat(600), error_code: 'validation_error' } };

    const body = await expectError(await book(validBooking({ doctor_id: 1 })), 400, 'validation_error');

    expect(body.message).toBe('x'.repeat(500));
  });

  it.each([
    ['a status it does not relay (418)', { status: 418, body: { success: false, message: 'teapot', error_code: 'validation_error' } }],
    ['a refusal without the spec error body', { status: 400, body: { oops: true } }],
    ['a 200 without an appointment_id', { status: 200, body: { success: true, message: 'Appointment booked successfully', data: {} } }],
  ])('answers 502 upstream_unavailable for %s', async (_case, bookingAnswer) => {
    upstream.bookingAnswer = bookingAnswer;

    await expectError(await book(validBooking({ doctor_id: 1 })), 502, 'upstream_unavailable');
    expect(upstreamWarnings()).toEqual(['server_error']);
  });
});

describe('a booking for any dentist', () => {
  it('derives each dentist’s key from the patient’s, hashing a patient key too long to carry the suffix within 255 characters', async () => {
    const fits = 'k'.repeat(255 - ':doctor-1'.length);
    const tooLong = `${fits}k`;

    await booked(validBooking({ appointment_time: '10:00' }), fits);
    // Another day, where the first dentist has no booking known either (the least booked goes first).
    await booked(validBooking({ appointment_date: '2026-11-25', appointment_time: '10:15' }), tooLong);

    const [kept, hashed] = forwardedKeys();
    expect(kept).toBe(`${fits}:doctor-1`);
    expect(hashed).toMatch(/^[A-Za-z0-9_-]{43}:doctor-1$/);
  });

  it('says every dentist is booked when each answers 409', async () => {
    upstream.busy = [1, 2];

    const body = await expectError(await book(validBooking()), 409, 'slot_unavailable');

    expect(body.message).toBe('Every dentist is booked at that time; please choose another time');
  });

  it('re-sends to the dentist the key booked first, even when a dentist listed before it has joined since', async () => {
    upstream.dentists = [2];
    const first = await booked(validBooking(), 'joined-1');
    upstream.dentists = [1, 2];
    time.advance(61_000); // past the dentist list's cache time

    const again = await booked(validBooking(), 'joined-1');

    expect(again).toEqual(first);
    expect(forwardedKeys()).toEqual(['joined-1:doctor-2', 'joined-1:doctor-2']);
  });

  it('re-sends to the dentist whose booking went unanswered (504), not to one listed before it', async () => {
    upstream.dentists = [2];
    upstream.silent = 2;
    await expectError(await book(validBooking(), 'silent-1'), 504, 'booking_outcome_unknown');
    upstream.dentists = [1, 2];
    upstream.silent = undefined;
    time.advance(61_000);

    const again = await booked(validBooking(), 'silent-1');

    expect(again.doctor_id).toBe(2);
    expect(forwardedKeys()).toEqual(['silent-1:doctor-2', 'silent-1:doctor-2']);
  });
});

describe('a re-sent booking for any dentist', () => {
  it('moves on from the dentist the key booked to the others, each once, when that dentist now refuses', async () => {
    upstream.dentists = [1, 2, 3];
    upstream.busy = [1];
    expect((await booked(validBooking(), 'moved-1')).doctor_id).toBe(2);
    upstream.busy = [1, 2];

    const again = await booked(validBooking(), 'moved-1');

    expect(again.doctor_id).toBe(3);
    expect(forwardedKeys()).toEqual(['moved-1:doctor-1', 'moved-1:doctor-2', 'moved-1:doctor-2', 'moved-1:doctor-3']);
  });

  it('goes to the listed dentists when the one the key booked is no longer listed', async () => {
    upstream.dentists = [2];
    await booked(validBooking(), 'left-1');
    upstream.dentists = [1, 3];
    time.advance(61_000); // past the dentist list's cache time

    const again = await booked(validBooking(), 'left-1');

    expect(again.doctor_id).toBe(1);
    expect(forwardedKeys()).toEqual(['left-1:doctor-2', 'left-1:doctor-1']);
  });

  it('does not send a re-send first to a dentist whose try surely failed (upstream 500)', async () => {
    upstream.dentists = [1];
    upstream.bookingAnswer = { status: 500, body: { success: false, message: 'down', error_code: 'internal_error' } };
    await expectError(await book(validBooking(), 'failed-1'), 502, 'upstream_unavailable');
    upstream.bookingAnswer = undefined;
    upstream.dentists = [2, 1];
    time.advance(61_000);

    const again = await booked(validBooking(), 'failed-1');

    expect(again.doctor_id).toBe(2);
  });
});

describe('POST /api/appointments/status', () => {
  it('relays an upstream refusal it knows, and answers 502 for an answer that does not match the contract', async () => {
    const { reference } = await booked(validBooking({ doctor_id: 1 }));
    upstream.statusAnswer = { status: 400, body: { success: false, message: 'Upstream refuses', error_code: 'validation_error' } };
    await expectError(await lookUp(reference), 400, 'validation_error');

    upstream.statusAnswer = { status: 200, body: { success: true, message: 'ok', data: { status: 'Lost' } } };

    await expectError(await lookUp(reference), 502, 'upstream_unavailable');
    expect(upstreamWarnings()).toEqual(['server_error']);
  });

  it('names the dentist and treatment of a booking until a week after the appointment, then no more', async () => {
    // 2026-11-24 10:00 in London (GMT): remembered until 2026-12-01 10:00 (docs/privacy.md).
    const { reference } = await booked(validBooking({ doctor_id: 2, treatment_id: 5 }));

    time.set('2026-12-01T09:59:00Z');
    const kept = BffStatusResponse.parse(await (await lookUp(reference)).json());
    time.set('2026-12-01T10:00:01Z');
    const forgotten = BffStatusResponse.parse(await (await lookUp(reference)).json());

    expect(kept.data).toMatchObject({ doctor_id: 2, treatment_id: 5 });
    expect(forgotten.data).not.toHaveProperty('doctor_id');
    expect(forgotten.data).not.toHaveProperty('treatment_id');
  });
});

describe('GET /api/appointments/status/:reference (deprecated)', () => {
  it('says since when (RFC 9745 Deprecation, in seconds) and until when (RFC 8594 Sunset)', async () => {
    const { reference } = await booked(validBooking({ doctor_id: 1 }));

    const res = await fetch(`${bff.api}/appointments/status/${reference}`);

    expect(res.headers.get('deprecation')).toBe('@1795305600');
    expect(res.headers.get('sunset')).toBe('Mon, 31 May 2027 00:00:00 GMT');
  });
});
