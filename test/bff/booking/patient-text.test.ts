import { describe, expect, it } from 'vitest';
import { ErrorBody } from '../../../contract/index.js';
import { BffBookingResponse } from '../../../contract/bff.js';
import { validBooking } from '../../server/support/test-server.js';
import { startStack } from '../support/bff-harness.js';

const stack = await startStack();

const book = (body: unknown) =>
  fetch(`${stack.bff.api}/appointments/book`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

const bookHits = () => stack.upstreamHits('/appointments/book');

describe('a booking with patient text that could hurt whoever reads it', () => {
  it.each([
    ['a NUL in patient_name', { patient_name: 'Jane\u0000Doe' }, 'patient_name must not contain control characters'],
    ['a terminal escape sequence in address', { address: '2 Low Road\u001b[2J' }, 'address must not contain control characters'],
    ['a BEL in note', { note: 'Hello\u0007' }, 'note must not contain control characters'],
    ['a newline in patient_name', { patient_name: 'Jane\nDoe' }, 'patient_name must not contain control characters'],
    ['a right-to-left override in patient_name', { patient_name: 'Jane \u202eeoD' }, 'patient_name must not contain bidirectional'],
    ['an isolate in note', { note: '\u2067note\u2069' }, 'note must not contain bidirectional'],
    ['a lone surrogate in address', { address: 'Road \ud800' }, 'address must not contain unpaired surrogates'],
    ['a C1 control in patient_phone', { patient_phone: '+44 7700\u0085900123' }, 'patient_phone must not contain control characters'],
    ['a name of zero-width spaces', { patient_name: '\u200b\u200b' }, 'patient_name is required'],
  ])('is refused with 400 validation_error for %s, before any upstream call', async (_kind, change, message) => {
    const before = bookHits();

    const res = await book(validBooking(change));

    expect(res.status).toBe(400);
    const body = ErrorBody.parse(await res.json());
    expect(body.error_code).toBe('validation_error');
    expect(body.message).toContain(message);
    expect(bookHits()).toBe(before);
  });

  it('is forwarded when the note only has a newline in it', async () => {
    const before = bookHits();

    const res = await book(validBooking({ note: 'Nervous patient.\nPrefers mornings.', appointment_time: '10:15' }));

    expect(res.status).toBe(200);
    expect(BffBookingResponse.parse(await res.json()).data.reference).toEqual(expect.any(String));
    expect(bookHits()).toBe(before + 1);
  });
});
