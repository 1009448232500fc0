import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { BffErrorBody, BffStatusResponse } from '../../../contract/bff.js';
import { createReference } from '../../../bff/booking/booking-reference.js';
import { formatReference, REFERENCE_ALPHABET, REFERENCE_PATTERN } from '../../../contract/rules/bff-api.js';
import { deriveReferenceKey, loadBffConfig } from '../../../bff/config.js';
import { validBooking } from '../../server/support/test-server.js';
import {
  appointmentIdOf,
  startBff,
  startStack,
  startStubUpstream,
  type RunningBff,
  type StubHandler,
} from '../support/bff-harness.js';
import { expectError } from '../../support/expect-error.js';

/** The BFF's answer to a booking: the upstream's message, a signed reference and the dentist; never the upstream's id. */
const BffBooked = z
  .object({
    success: z.literal(true),
    message: z.string(),
    data: z.object({ reference: z.string(), doctor_id: z.number().int().positive().nullable() }).strict(),
  })
  .strict();

const REFERENCE_SHAPE = REFERENCE_PATTERN;
/** Status lookups here are many; the per-IP status limit has its own test (status-lookup.test.ts). */
const UNLIMITED_STATUS = { statusRateLimit: { limit: 100_000, windowMs: 60_000 } };

const stack = await startStack({ bff: UNLIMITED_STATUS });

const book = (body: unknown, headers: Record<string, string> = {}, bff: RunningBff = stack.bff) =>
  fetch(`${bff.api}/appointments/book`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });

const statusOf = (reference: string, bff: RunningBff = stack.bff) => fetch(`${bff.api}/appointments/status/${reference}`);

/** A booking's answer, and the upstream id inside its reference (read as the BFF reads it: browsers never see it). */
async function booked(body: unknown = validBooking(), headers: Record<string, string> = {}, bff: RunningBff = stack.bff) {
  const res = await book(body, headers, bff);
  expect(res.status).toBe(200);
  const { data } = BffBooked.parse(await res.json());
  return { ...data, appointment_id: appointmentIdOf(bff, data.reference) };
}

const bookHits = () => stack.upstreamHits('/appointments/book');

/** Upstream status calls of any appointment, from the reference server's request log. */
const statusHits = () =>
  stack.upstream.logs.filter((line) =>
    ((JSON.parse(line) as { req?: { path?: string } }).req?.path ?? '').startsWith('/api/v1/appointments/status/'),
  ).length;

const NOT_FOUND = { success: false, message: 'Booking not found', error_code: 'not_found' };

/** 404 not_found, with no upstream status call made for it. */
async function expectUnknownReference(reference: string, bff: RunningBff = stack.bff): Promise<void> {
  const before = statusHits();
  const res = await statusOf(reference, bff);
  expect(res.status).toBe(404);
  expect(await res.json()).toEqual(NOT_FOUND);
  expect(statusHits()).toBe(before);
}

describe('POST /api/appointments/book with a valid booking', () => {
  it('answers {success, message, data: {reference, doctor_id}} and the appointment exists upstream', async () => {
    // A day no other test books: without a doctor_id, the BFF books the first dentist free then and names it.
    const res = await book(validBooking({ patient_name: 'Valid Booker', note: 'First visit', appointment_date: '2026-11-25' }));
    const dentists = (await (await fetch(`${stack.bff.api}/dentists`)).json()) as { data: { doctor_id: number }[] };

    expect(res.status).toBe(200);
    const body = BffBooked.parse(await res.json());
    expect(body).toEqual({
      success: true,
      message: 'Appointment booked successfully',
      data: { reference: expect.stringMatching(REFERENCE_SHAPE), doctor_id: dentists.data[0]!.doctor_id },
    });
    const row = await stack.upstream.db
      .selectFrom('appointments')
      .selectAll()
      .where('appointment_id', '=', appointmentIdOf(stack.bff, body.data.reference))
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      care_id: stack.clinic.careId,
      patient_name: 'Valid Booker',
      patient_phone: '+44 7700 900123',
      appointment_date: '2026-11-25',
      appointment_time: '10:00',
      note: 'First visit',
      status: 'Scheduled',
    });
  });

  it("never names the upstream's sequential appointment_id: it stays inside the reference", async () => {
    const res = await book(validBooking({ appointment_time: '10:45' }));

    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text).not.toContain('appointment_id');
    expect(Object.keys((JSON.parse(text) as { data: object }).data)).toEqual(['reference', 'doctor_id']);
  });

  it('is never cached (Cache-Control: no-store)', async () => {
    const res = await book(validBooking({ appointment_time: '10:15' }));

    expect(res.headers.get('cache-control')).toBe('no-store');
  });

  it('accepts an empty honeypot field and books', async () => {
    const res = await book(validBooking({ website: '', appointment_time: '10:30' }));

    expect(res.status).toBe(200);
  });

  it('refuses a booking on a day the clinic is closed (a Sunday) itself: 400 with reason closed_day, nothing sent upstream', async () => {
    const before = bookHits();

    const res = await book(validBooking({ appointment_date: '2026-11-29' }));

    expect(res.status).toBe(400);
    expect(BffErrorBody.parse(await res.json())).toEqual({
      success: false,
      message: 'Invalid request: the clinic is closed on Sunday',
      error_code: 'validation_error',
      reason: 'closed_day',
    });
    expect(bookHits()).toBe(before);
  });

  it('relays an upstream 409 slot_unavailable as 409 with the spec body', async () => {
    const dentists = (await (await fetch(`${stack.bff.api}/dentists`)).json()) as { data: { doctor_id: number }[] };
    const doctorId = dentists.data[0]!.doctor_id;
    await booked(validBooking({ doctor_id: doctorId, appointment_time: '15:00' }));

    await expectError(await book(validBooking({ doctor_id: doctorId, appointment_time: '15:00' })), 409, 'slot_unavailable');
  });
});

describe('GET /api/appointments/status/:reference', () => {
  it("answers the upstream's status, name, date and time", async () => {
    const { reference } = await booked(validBooking({ patient_name: 'Status Patient', appointment_time: '11:30' }));

    const res = await statusOf(reference);

    expect(res.status).toBe(200);
    expect(BffStatusResponse.parse(await res.json())).toEqual({
      success: true,
      message: expect.any(String),
      // The spec's status view, and the dentist the BFF booked (any dentist: the first free) and no treatment.
      data: { status: 'Scheduled', name: 'Status Patient', date: '2026-11-24', time: '11:30', doctor_id: expect.any(Number), treatment_id: null },
    });
    expect(res.headers.get('cache-control')).toBe('no-store');
  });

  it('names the dentist and the treatment this BFF booked, which the spec status view leaves out', async () => {
    const first = async (path: string, field: string) =>
      ((await (await fetch(`${stack.bff.api}${path}`)).json()) as { data: Record<string, number>[] }).data[0]![field]!;
    const doctorId = await first('/dentists', 'doctor_id');
    const treatmentId = await first('/treatments', 'treatment_id');
    const { reference } = await booked(validBooking({ appointment_time: '13:30', doctor_id: doctorId, treatment_id: treatmentId }));

    const { data } = BffStatusResponse.parse(await (await statusOf(reference)).json());

    expect(data).toMatchObject({ doctor_id: doctorId, treatment_id: treatmentId });
  });

  it('shows a status change made upstream at once (status is not cached)', async () => {
    const { appointment_id, reference } = await booked(validBooking({ appointment_time: '12:30' }));
    expect(BffStatusResponse.parse(await (await statusOf(reference)).json()).data.status).toBe('Scheduled');

    await stack.upstream.db.updateTable('appointments').set({ status: 'Completed' }).where('appointment_id', '=', appointment_id).execute();

    const res = await statusOf(reference);
    expect(res.status).toBe(200);
    expect(BffStatusResponse.parse(await res.json()).data.status).toBe('Completed');
  });
});

describe('a booking the BFF refuses before forwarding', () => {
  it('answers 400 validation_error naming every missing field, without an upstream call', async () => {
    const before = bookHits();

    await expectError(await book({}), 400, 'validation_error', 'patient_name', 'patient_phone', 'appointment_date', 'appointment_time');

    expect(bookHits()).toBe(before);
  });

  it.each([
    ['a date that does not exist', { appointment_date: '2026-02-30' }, 'appointment_date'],
    ['a 12-hour time', { appointment_time: '10:00 AM' }, 'appointment_time'],
    ['a phone made of letters', { patient_phone: 'call me maybe' }, 'patient_phone'],
    ['a doctor_id given as a string', { doctor_id: '1' }, 'doctor_id'],
    ['a note over 1000 characters', { note: 'n'.repeat(1001) }, 'note'],
    ['an unknown field', { is_vip: true }, 'is_vip'],
  ])('answers 400 validation_error for %s, naming the field, without an upstream call', async (_name, change, field) => {
    const before = bookHits();

    await expectError(await book(validBooking(change)), 400, 'validation_error', field);

    expect(bookHits()).toBe(before);
  });

  it('answers 400 validation_error for malformed JSON without an upstream call', async () => {
    const before = bookHits();

    await expectError(await book('{"patient_name": '), 400, 'validation_error');

    expect(bookHits()).toBe(before);
  });

  it('answers 400 validation_error naming the honeypot when it is filled in, without an upstream call', async () => {
    const before = bookHits();

    await expectError(await book(validBooking({ website: 'spam' })), 400, 'validation_error', 'website');

    expect(bookHits()).toBe(before);
  });

  it('answers 400 validation_error for a malformed Idempotency-Key without an upstream call', async () => {
    const before = bookHits();

    await expectError(await book(validBooking(), { 'idempotency-key': 'k'.repeat(256) }), 400, 'validation_error', 'Idempotency-Key');

    expect(bookHits()).toBe(before);
  });

  it('answers 415 unsupported_media_type for a text/plain body without an upstream call', async () => {
    const before = bookHits();

    await expectError(await book(JSON.stringify(validBooking()), { 'content-type': 'text/plain' }), 415, 'unsupported_media_type');

    expect(bookHits()).toBe(before);
  });

  it('answers 413 payload_too_large for a 9 KB body without an upstream call', async () => {
    const before = bookHits();

    await expectError(await book(validBooking({ note: 'n'.repeat(9 * 1024) })), 413, 'payload_too_large');

    expect(bookHits()).toBe(before);
  });

  it('reads a body just under 8 KB (and refuses it for its fields, not its size)', async () => {
    const body = JSON.stringify(validBooking({ note: 'n'.repeat(8 * 1024 - 200) }));
    expect(Buffer.byteLength(body)).toBeLessThanOrEqual(8 * 1024);

    await expectError(await book(body), 400, 'validation_error', 'note');
  });

  it("names the BFF's own 8 KB limit in the 413 message, not the upstream's", async () => {
    const { message } = await expectError(await book(validBooking({ note: 'n'.repeat(9 * 1024) })), 413, 'payload_too_large');

    for (const [, bytes] of message.matchAll(/(\d+) bytes/g)) expect(Number(bytes)).toBe(8 * 1024);
  });
});

describe('what reaches the upstream (recording stub)', async () => {
  const answer: StubHandler = (req, res) => {
    res.setHeader('content-type', 'application/json');
    if (req.url === '/api/v1/granttoken') return void res.end(JSON.stringify({ access_token: 'stub-token-booking-0123456789', expires_in: 3600 }));
    res.end(JSON.stringify({ success: true, message: 'Appointment booked successfully', data: { appointment_id: 77 } }));
  };
  const forwardedBookings = () => stub.requests.filter((r) => r.url === '/api/v1/appointments/book');

  const stub = await startStubUpstream(answer);
  const bff = await startBff(stub.api, { appKey: 'ck_booking_stub', secret: 'booking-stub-secret-0123456789' });

  it('forwards the booking without the empty honeypot field', async () => {
    const booking = validBooking({ note: 'Honeypot left empty' });

    await booked({ ...booking, website: '' }, {}, bff);

    const forwarded = JSON.parse(forwardedBookings().at(-1)!.body) as Record<string, unknown>;
    expect(forwarded).not.toHaveProperty('website');
    expect(forwarded).toEqual(booking);
  });

  it("passes the browser's Idempotency-Key on upstream", async () => {
    await booked(validBooking(), { 'idempotency-key': 'browser-key-123' }, bff);

    expect(forwardedBookings().at(-1)!.headers['idempotency-key']).toBe('browser-key-123');
  });

  it('sends no Idempotency-Key upstream when the browser sent none', async () => {
    await booked(validBooking(), {}, bff);

    expect(forwardedBookings().at(-1)!.headers['idempotency-key']).toBeUndefined();
  });
});

describe('Idempotency-Key with the real upstream', () => {
  it('answers a retry with the same key with the same appointment_id and creates one appointment', async () => {
    const body = validBooking({ patient_name: 'Idempotent Patient', appointment_time: '13:00' });
    const first = await booked(body, { 'idempotency-key': 'retry-key-1' });

    const second = await booked(body, { 'idempotency-key': 'retry-key-1' });

    expect(second.appointment_id).toBe(first.appointment_id);
    const rows = await stack.upstream.db.selectFrom('appointments').select('appointment_id').where('patient_name', '=', 'Idempotent Patient').execute();
    expect(rows).toHaveLength(1);
  });

  it('answers both references of a replayed booking with the same appointment', async () => {
    const body = validBooking({ patient_name: 'Replay Patient', appointment_time: '13:15' });
    const first = await booked(body, { 'idempotency-key': 'retry-key-2' });
    const second = await booked(body, { 'idempotency-key': 'retry-key-2' });

    for (const { reference } of [first, second]) {
      const res = await statusOf(reference);
      expect(BffStatusResponse.parse(await res.json()).data.name).toBe('Replay Patient');
    }
  });
});

describe('booking references', () => {
  let reference: string;
  let appointmentId: number;

  beforeAll(async () => {
    ({ reference, appointment_id: appointmentId } = await booked(validBooking({ patient_name: 'Reference Patient', appointment_time: '14:00' })));
  });

  /** The reference with the symbol at `index` (dashes skipped) replaced by its neighbour in the alphabet. */
  const changeAt = (ref: string, index: number) => {
    const symbols = ref.replaceAll('-', '');
    const flipped = REFERENCE_ALPHABET[REFERENCE_ALPHABET.indexOf(symbols[index]!) ^ 1]!;
    return formatReference(symbols.slice(0, index) + flipped + symbols.slice(index + 1));
  };

  it('answers 404 not_found for a reference with one symbol changed, without an upstream call', async () => {
    await expectUnknownReference(changeAt(reference, 12));
  });

  it('answers 404 not_found for a reference with any single symbol changed, the format marker and the last included', async () => {
    const accepted: number[] = [];
    for (let index = 0; index < 20; index++) {
      const res = await statusOf(changeAt(reference, index));
      if (res.status !== 404) accepted.push(index);
      await res.body?.cancel();
    }

    expect(accepted).toEqual([]);
  });

  it('answers 404 not_found for a truncated reference, without an upstream call', async () => {
    await expectUnknownReference(reference.slice(0, -1));
    await expectUnknownReference(reference.slice(0, 14));
  });

  it('answers 404 not_found for a reference with a character added, without an upstream call', async () => {
    await expectUnknownReference(`${reference}A`);
  });

  it('answers 404 not_found for a random reference of the right shape, without an upstream call', async () => {
    for (let i = 0; i < 5; i++) {
      const madeUp = formatReference([...randomBytes(20)].map((byte) => REFERENCE_ALPHABET[byte % 32]).join(''));
      expect(madeUp).toMatch(REFERENCE_SHAPE);
      await expectUnknownReference(madeUp);
    }
  });

  it('answers 404 not_found for the bare appointment id, without an upstream call', async () => {
    await expectUnknownReference(String(appointmentId));
  });

  it("answers 404 not_found for another BFF's reference (another key), without an upstream call", async () => {
    const other = await startBff(stack.upstream.api, stack.clinic, { ...UNLIMITED_STATUS, referenceKey: deriveReferenceKey('another-booking-key-0123456789abcdef') });
    try {
      const { reference: foreign } = await booked(validBooking({ patient_name: 'Foreign Patient', appointment_time: '14:15' }), {}, other);
      expect((await statusOf(foreign, other)).status).toBe(200);

      await expectUnknownReference(foreign);
    } finally {
      await other.close();
    }
  });

  it('answers a genuine reference to an appointment that does not exist exactly like a made-up one', async () => {
    const genuineButUnknown = createReference(987_654, stack.bff.config.referenceKey);

    const res = await statusOf(genuineButUnknown);

    expect(res.status).toBe(404);
    expect(await res.json()).toEqual(NOT_FOUND);
  });

  it('stays valid on a restarted BFF with the same settings', async () => {
    const first = await startBff(stack.upstream.api, stack.clinic, UNLIMITED_STATUS);
    const { reference: issued } = await booked(validBooking({ patient_name: 'Restart Patient', appointment_time: '14:30' }), {}, first);
    await first.close();

    const restarted = await startBff(stack.upstream.api, stack.clinic, UNLIMITED_STATUS);
    try {
      const res = await statusOf(issued, restarted);

      expect(res.status).toBe(200);
      expect(BffStatusResponse.parse(await res.json()).data.name).toBe('Restart Patient');
    } finally {
      await restarted.close();
    }
  });

  it('stays valid on a restarted BFF with the same BOOKING_REF_SECRET, and only there', async () => {
    const env = {
      UPSTREAM_URL: stack.upstream.api,
      APP_KEY: stack.clinic.appKey,
      APP_SECRET_KEY: stack.clinic.secret,
      BOOKING_REF_SECRET: 'a-dedicated-booking-reference-secret-0123456789',
    };
    const keyOf = () => loadBffConfig({ ...env }, '/nonexistent/.env').referenceKey;
    const first = await startBff(stack.upstream.api, stack.clinic, { ...UNLIMITED_STATUS, referenceKey: keyOf() });
    const { reference: issued } = await booked(validBooking({ patient_name: 'Ref Secret Patient', appointment_time: '14:45' }), {}, first);
    await first.close();

    const restarted = await startBff(stack.upstream.api, stack.clinic, { ...UNLIMITED_STATUS, referenceKey: keyOf() });
    try {
      const res = await statusOf(issued, restarted);
      expect(res.status).toBe(200);
      expect(BffStatusResponse.parse(await res.json()).data.name).toBe('Ref Secret Patient');
    } finally {
      await restarted.close();
    }
    // The stack's BFF has another BOOKING_REF_SECRET: a different key.
    await expectUnknownReference(issued);
  });

  it('does not carry the appointment id in clear', async () => {
    const second = await booked(validBooking({ appointment_time: '16:00' }));
    const references = [reference, second.reference];

    for (const [ref, id] of [
      [reference, appointmentId],
      [second.reference, second.appointment_id],
    ] as const) {
      const value = [...ref.replaceAll('-', '')].reduce((n, symbol) => (n << 5n) | BigInt(REFERENCE_ALPHABET.indexOf(symbol)), 0n);
      // marker (4 bits) | id encrypted (32 bits) | MAC (64 bits): the middle is not the id.
      expect(Number((value >> 64n) & 0xffffffffn)).not.toBe(id);
    }
    // Consecutive ids give unrelated references: no shared prefix beyond chance.
    let common = 0;
    while (common < references[0]!.length && references[0]![common] === references[1]![common]) common++;
    expect(common).toBeLessThan(4);
  });

  it('gives the same appointment the same reference each time it is answered (deterministic per id)', async () => {
    const body = validBooking({ patient_name: 'Twice Patient', appointment_time: '16:15' });
    const first = await booked(body, { 'idempotency-key': 'twice-key' });
    const second = await booked(body, { 'idempotency-key': 'twice-key' });

    expect(second.appointment_id).toBe(first.appointment_id);
    expect(second.reference).toBe(first.reference);
  });
});
