import { describe, expect, it } from 'vitest';
import { AppointmentStatusResponse, BookAppointmentResponse, ErrorBody } from '../../../contract/index.js';
import { FakeClock, TEST_NOW } from '../../support/fake-clock.js';
import { validBooking } from '../support/test-server.js';
import { twoClinics, useTestServer } from '../support/use-test-server.js';

const clock = new FakeClock(TEST_NOW);
const ctx = useTestServer({ clock, setup: twoClinics() });

const book = (body: unknown) => ctx.caller.post('/appointments/book', body);

/** Books (no dentist, so times never clash) and answers the stored row. */
async function bookedRow(overrides: Record<string, unknown>) {
  const res = await book(validBooking(overrides));
  expect(res.status).toBe(200);
  const { data } = BookAppointmentResponse.parse(await res.json());
  return ctx.server.db.selectFrom('appointments').selectAll().where('appointment_id', '=', data.appointment_id).executeTakeFirstOrThrow();
}

async function expectRefused(res: Response, field: string, problem: string): Promise<void> {
  expect(res.status).toBe(400);
  const body = ErrorBody.parse(await res.json());
  expect(body.error_code).toBe('validation_error');
  expect(body.message).toContain(`${field} ${problem}`);
}

const CONTROL = 'must not contain control characters';
const BIDI = 'must not contain bidirectional embedding, override or isolate characters';
const SURROGATE = 'must not contain unpaired surrogates';

/** Each kind of text that could hurt whoever reads it, wrapped in otherwise good text. */
const HARMFUL: [string, string, string][] = [
  ['NUL', 'Jane\u0000Doe', CONTROL],
  ['BEL', 'Jane\u0007Doe', CONTROL],
  ['a terminal escape sequence', 'Jane \u001b[2J\u001b[31mDoe', CONTROL],
  ['a tab', 'Jane\tDoe', CONTROL],
  ['DEL', 'Jane\u007fDoe', CONTROL],
  ['a C1 control (CSI)', 'Jane\u009b31mDoe', CONTROL],
  ['a C1 next line (NEL)', 'Jane\u0085Doe', CONTROL],
  ['a right-to-left override', 'Jane \u202eeoD', BIDI],
  ['a left-to-right embedding', 'Jane \u202aDoe\u202c', BIDI],
  ['a first-strong isolate', 'Jane \u2068Doe\u2069', BIDI],
  ['a lone high surrogate', 'Jane \ud83dDoe', SURROGATE],
  ['a lone low surrogate', 'Jane \udca9Doe', SURROGATE],
];

/** Line breaks: refused in single-line fields. */
const LINE_BREAKS: [string, string][] = [
  ['LF', 'Jane\nDoe'],
  ['CR', 'Jane\rDoe'],
  ['CRLF', 'Jane\r\nDoe'],
];

const PHONE_WITH = (text: string) => text.replace('Jane', '+44 7700').replace('Doe', '900123').replace('eoD', '900123');

describe('POST /appointments/book: patient text that cannot hurt whoever reads it', () => {
  describe.each(['patient_name', 'address', 'note'])('%s', (field) => {
    it.each(HARMFUL)('answers 400 validation_error naming the field for text with %s', async (_kind, text, problem) => {
      await expectRefused(await book(validBooking({ [field]: text })), field, problem);
    });
  });

  describe('patient_phone', () => {
    it.each(HARMFUL)('answers 400 validation_error naming patient_phone for a phone with %s', async (_kind, text, problem) => {
      await expectRefused(await book(validBooking({ patient_phone: PHONE_WITH(text) })), 'patient_phone', problem);
    });
  });

  describe.each(['patient_name', 'patient_phone', 'address'])('%s (a single line)', (field) => {
    it.each(LINE_BREAKS)('answers 400 validation_error for a %s inside it', async (_kind, text) => {
      const value = field === 'patient_phone' ? PHONE_WITH(text) : text;
      await expectRefused(await book(validBooking({ [field]: value })), field, CONTROL);
    });
  });

  describe('note (several lines)', () => {
    it('keeps a newline', async () => {
      const row = await bookedRow({ note: 'Nervous patient.\nPrefers mornings.', appointment_time: '10:15' });
      expect(row.note).toBe('Nervous patient.\nPrefers mornings.');
    });

    it('stores CRLF and a lone CR as LF', async () => {
      const row = await bookedRow({ note: 'one\r\ntwo\rthree', appointment_time: '10:30' });
      expect(row.note).toBe('one\ntwo\nthree');
    });
  });

  describe('required fields with nothing visible', () => {
    it.each([
      ['zero-width spaces', '\u200b\u200b\u200b'],
      ['a zero-width joiner and a word joiner', '\u200d\u2060'],
      ['a byte order mark between spaces', ' \ufeff '],
      ['Hangul fillers', '\u3164\u3164'],
      ['no-break and ideographic spaces', '\u00a0\u3000'],
    ])('answers 400 "patient_name is required" for a name of %s', async (_kind, text) => {
      await expectRefused(await book(validBooking({ patient_name: text })), 'patient_name', 'is required');
    });

    it('answers 400 "patient_phone is required" for a phone of zero-width spaces', async () => {
      await expectRefused(await book(validBooking({ patient_phone: '\u200b\u200b' })), 'patient_phone', 'is required');
    });
  });

  describe('optional fields with nothing visible', () => {
    it('treats an address and a note of only whitespace and zero-width characters as absent', async () => {
      const row = await bookedRow({ address: '\u200b \u200c', note: '\n\u2060\n', appointment_time: '10:45' });
      expect(row.address).toBeNull();
      expect(row.note).toBeNull();
    });
  });

  describe('Unicode normalisation (NFC)', () => {
    it('stores a decomposed é composed and shows it back composed', async () => {
      const decomposed = 'Ame\u0301lie Unte\u0301'; // e + COMBINING ACUTE ACCENT
      const composed = 'Am\u00e9lie Unt\u00e9';
      const row = await bookedRow({ patient_name: decomposed, address: 'Rue de l’Ope\u0301ra', note: 'cafe\u0301', appointment_time: '11:15' });
      expect(row.patient_name).toBe(composed);
      expect(row.address).toBe('Rue de l’Op\u00e9ra');
      expect(row.note).toBe('caf\u00e9');

      const status = AppointmentStatusResponse.parse(await (await ctx.caller.get(`/appointments/status/${row.appointment_id}`)).json());
      expect(status.data.name).toBe(composed);
    });

    it('counts the length of the composed text', async () => {
      // 100 composed characters, 200 UTF-16 units before composing.
      const row = await bookedRow({ patient_name: 'e\u0301'.repeat(100), appointment_time: '11:30' });
      expect(row.patient_name).toBe('\u00e9'.repeat(100));
    });
  });

  describe('text that is harmless stays as sent', () => {
    it('keeps right-to-left names, their marks, emoji with joiners and apostrophes', async () => {
      const name = 'مريم\u200f O’Brien 👩‍⚕️ Łukasz';
      const row = await bookedRow({ patient_name: name, appointment_time: '11:45' });
      expect(row.patient_name).toBe(name);
    });
  });
});
