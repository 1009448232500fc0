import { describe, expect, it } from 'vitest';
import { BffBookingResponse } from '../../../contract/bff.js';
import { idempotencyKeyReused } from '../../../contract/errors.js';
import { validBooking } from '../../server/support/test-server.js';
import { expectError } from '../../support/expect-error.js';
import { FakeClock, TEST_NOW } from '../../support/fake-clock.js';
import { BFF_FIXTURE_DEFAULT_MINUTES, fixtureIds, startBff, startStack, type RunningBff } from '../support/bff-harness.js';

/**
 * A patient's Idempotency-Key is bound to the body first sent upstream under
 * it, by the BFF itself: "any dentist" sends each try under a derived key, so
 * upstream cannot see a key reused across a named dentist and "any dentist".
 * The BFF asks 48 hours of notice, the clinic (the reference server) 2; the
 * clock stands at Monday 23 November 2026 09:00 in London, so Tuesday is
 * inside the BFF's notice and Thursday outside it.
 */

const TUESDAY = '2026-11-24';
const WEDNESDAY = '2026-11-25';
const THURSDAY = '2026-11-26';
const bookingRules = { minNoticeMinutes: 48 * 60, horizonDays: 365, defaultDurationMinutes: BFF_FIXTURE_DEFAULT_MINUTES };

const stack = await startStack({ bff: { bookingRules } });
const { dentists } = await fixtureIds(stack.bff);

const book = (body: Record<string, unknown>, key: string, bff: RunningBff = stack.bff) =>
  fetch(`${bff.api}/appointments/book`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'idempotency-key': key },
    body: JSON.stringify(body),
  });

const appointmentsOf = (patient: string) =>
  stack.upstream.db.selectFrom('appointments').select(['appointment_date', 'appointment_time', 'doctor_id']).where('patient_name', '=', patient).execute();

const bookHits = () => stack.upstreamHits('/appointments/book');

/** A booking of `patient`, naming the first dentist or, with `dentist: 'any'`, none. */
const bookingOf = (patient: string, dentist: 'named' | 'any', fields: Record<string, unknown>) =>
  validBooking({ patient_name: patient, ...(dentist === 'named' ? { doctor_id: dentists[0] } : {}), ...fields });

describe("a booking inside the BFF's notice under the key of an accepted booking", () => {
  it.each([
    ['a named dentist, then any dentist', 'named', 'any', '10:00'],
    ['any dentist, then a named dentist', 'any', 'named', '11:00'],
    ['a named dentist, then the same dentist', 'named', 'named', '12:00'],
  ] as const)(
    "is refused 400 inside_notice when its body is another patient's, and nothing is stored: %s",
    async (_case, first, second, time) => {
      const key = `notice-bypass-${time}`;
      const accepted = await book(bookingOf(`Accepted ${time}`, first, { appointment_date: THURSDAY, appointment_time: time }), key);
      expect(accepted.status).toBe(200);
      const before = bookHits();

      const res = await book(bookingOf(`Intruder ${time}`, second, { appointment_date: TUESDAY, appointment_time: time }), key);

      await expectError(res, 400, { error_code: 'validation_error', reason: 'inside_notice' }, 'at least 2880 minutes ahead');
      expect(bookHits()).toBe(before);
      expect(await appointmentsOf(`Intruder ${time}`)).toEqual([]);
    },
  );

  it('goes on for the accepted body once time has brought it inside the notice, and replays; another body is refused', async () => {
    const time = new FakeClock(TEST_NOW);
    const bff = await startBff(stack.upstream.api, stack.clinic, { bookingRules }, time);
    const named = bookingOf('Waived Named', 'named', { appointment_date: WEDNESDAY, appointment_time: '10:00' });
    const anyDentist = bookingOf('Waived Any', 'any', { appointment_date: WEDNESDAY, appointment_time: '10:15' });
    const first = [await book(named, 'waived-named', bff), await book(anyDentist, 'waived-any', bff)];
    expect(first.map((res) => res.status)).toEqual([200, 200]);
    const booked = await Promise.all(first.map(async (res) => BffBookingResponse.parse(await res.json()).data));
    time.advance(2 * 3600_000); // 11:00 on Monday: the earliest start is now Wednesday 11:00.

    const resent = [await book(named, 'waived-named', bff), await book(anyDentist, 'waived-any', bff)];
    const others = [
      await book({ ...named, patient_name: 'Someone Else' }, 'waived-named', bff),
      await book({ ...anyDentist, patient_name: 'Someone Else' }, 'waived-any', bff),
    ];

    expect(resent.map((res) => [res.status, res.headers.get('idempotent-replayed')])).toEqual([
      [200, 'true'],
      [200, 'true'],
    ]);
    expect(await Promise.all(resent.map(async (res) => BffBookingResponse.parse(await res.json()).data))).toEqual(booked);
    for (const res of others) await expectError(res, 400, { error_code: 'validation_error', reason: 'inside_notice' });
    expect(await appointmentsOf('Someone Else')).toEqual([]);
  });
});

describe('one key for a named dentist and for "any dentist"', () => {
  it('refuses a key first used for a named dentist, sent again as any dentist, with 422 idempotency_key_reused, as the server would', async () => {
    const named = bookingOf('Named First', 'named', { appointment_date: THURSDAY, appointment_time: '14:00' });
    expect((await book(named, 'named-then-any')).status).toBe(200);
    const before = bookHits();

    const { doctor_id: _dentist, ...anyDentist } = named;
    const res = await book(anyDentist, 'named-then-any');

    await expectError(res, 422, 'idempotency_key_reused', idempotencyKeyReused().message);
    expect(bookHits()).toBe(before);
    expect(await appointmentsOf('Named First')).toEqual([{ appointment_date: THURSDAY, appointment_time: '14:00', doctor_id: dentists[0] }]);
  });

  it('refuses a key first used for any dentist, sent again naming another dentist or for another day, with 422', async () => {
    const anyDentist = bookingOf('Any First', 'any', { appointment_date: THURSDAY, appointment_time: '15:00' });
    const first = await book(anyDentist, 'any-then-other');
    expect(first.status).toBe(200);
    const { doctor_id } = BffBookingResponse.parse(await first.json()).data;
    const other = dentists.find((id) => id !== doctor_id)!;
    const before = bookHits();

    const answers = [
      await book({ ...anyDentist, doctor_id: other }, 'any-then-other'),
      await book({ ...anyDentist, appointment_date: '2026-11-27' }, 'any-then-other'),
    ];

    for (const res of answers) await expectError(res, 422, 'idempotency_key_reused', idempotencyKeyReused().message);
    expect(bookHits()).toBe(before);
    expect(await appointmentsOf('Any First')).toEqual([{ appointment_date: THURSDAY, appointment_time: '15:00', doctor_id }]);
  });
});
