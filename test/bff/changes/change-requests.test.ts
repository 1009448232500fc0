import { describe, expect, it } from 'vitest';
import { ChangeRequestResponse } from '../../../contract/bff-changes.js';
import { BffErrorBody } from '../../../contract/bff.js';
import { clinicCli } from '../../server/support/clinic-cli.js';
import { appointmentIdOf, fixtureIds, startStack } from '../support/bff-harness.js';
import { book, messagesAbout, requestChange, startChangesStack, statusOf } from './support/changes-stack.js';

/**
 * POST /api/appointments/change-requests against the reference server, the
 * BFF's own database a real SQLite file: a patient's cancel or move request
 * is taken once, told to each of the clinic's channels once (the outbox), and
 * refused with a reason when the booking or a wished start does not allow it.
 * The clock stands at TEST_NOW (Monday 23 November 2026, 09:00 in London);
 * bookings are on Tuesday, more than the 24-hour change window ahead.
 */

const stack = await startChangesStack({ notifications: { changeRules: { minNoticeHours: 24, moveAllowed: true, text: 'Please give us a day.' } } });
const api = stack.bff.api;

/** A start of its own on Tuesday afternoon for each booking that needs no particular one (any dentist: two per start). */
let afternoon = 0;
const nextTime = () => {
  const minutes = 14 * 60 + 15 * Math.floor(afternoon++ / 2);
  return `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
};

/** A 400 refusal with its reason; returns its message. */
async function expectRefused(res: Response, reason: string): Promise<string> {
  const body = BffErrorBody.parse(await res.json());
  expect(res.status, body.message).toBe(400);
  expect(body).toMatchObject({ error_code: 'validation_error', reason });
  return body.message;
}

describe('a cancel request', () => {
  it('is taken (201), told to each channel once, and a second is already_requested (200) with the first\'s time', async () => {
    const { data } = await book(stack, { patient_name: 'Cancel Carla', appointment_time: '09:00' });
    const id = appointmentIdOf(stack.bff, data.reference);

    const first = await requestChange(api, { reference: data.reference, kind: 'cancel' });
    const firstBody = ChangeRequestResponse.parse(await first.json());
    const second = await requestChange(api, { reference: data.reference.toLowerCase().replaceAll('-', ' '), kind: 'cancel' });
    const secondBody = ChangeRequestResponse.parse(await second.json());

    expect(first.status).toBe(201);
    expect(firstBody.data).toEqual({ kind: 'cancel', requested_at: '2026-11-23T09:00:00.000Z', already_requested: false });
    expect(first.headers.get('cache-control')).toBe('no-store');
    expect(second.status).toBe(200);
    expect(secondBody.data).toEqual({ kind: 'cancel', requested_at: firstBody.data.requested_at, already_requested: true });
    const told = await messagesAbout(stack.database, 'booking.cancel_requested', id);
    expect(told.map((row) => row.channel).sort()).toEqual(['email', 'webhook']);
    expect(told.every((row) => row.state === 'pending' && row.site_id === 'default')).toBe(true);
  });

  it('tells the clinic who, when, with whom and for what, from the status view and the booking record', async () => {
    const { dentists, treatmentLasting } = await fixtureIds(stack.bff);
    const { data } = await book(stack, { patient_name: 'Detail Dana', patient_phone: '020 7946 0111', appointment_time: '09:30', doctor_id: dentists[1], treatment_id: treatmentLasting(30) });
    const id = appointmentIdOf(stack.bff, data.reference);

    await requestChange(api, { reference: data.reference, kind: 'cancel', message: '  Sorry,\r\nsomething came up.  ' });

    const [email, webhook] = await messagesAbout(stack.database, 'booking.cancel_requested', id);
    expect(email?.event).toEqual(webhook?.event);
    expect(email?.id).not.toBe(webhook?.id);
    expect(email?.event).toEqual({
      type: 'booking.cancel_requested',
      occurred_at: '2026-11-23T09:00:00.000Z',
      site_id: 'default',
      reference: data.reference,
      appointment_id: id,
      appointment: { date: '2026-11-24', time: '09:30', doctor_id: dentists[1], dentist_name: 'Dr Raj Patel', treatment_id: treatmentLasting(30), treatment_name: 'Check-up' },
      patient: { name: 'Detail Dana', phone: '020 7946 0111' },
      message: 'Sorry,\nsomething came up.',
    });
  });

  it('shows in the status view: the time asked, cancel no longer open, move still open, the clinic\'s words', async () => {
    const { data } = await book(stack, { appointment_time: '10:00' });
    const before = await statusOf(stack, data.reference);

    await requestChange(api, { reference: data.reference, kind: 'cancel' });
    const after = await statusOf(stack, data.reference);

    expect(before.changes).toEqual({
      cancel_requested_at: null,
      move_requested_at: null,
      move_preferred_starts: [],
      can_request_cancel: true,
      can_request_move: true,
      closed_reason: null,
      min_notice_hours: 24,
      move_offered: true,
      text: 'Please give us a day.',
      booking_page_url: null,
    });
    expect(after.status).toBe('Scheduled');
    expect(after.changes).toMatchObject({ cancel_requested_at: '2026-11-23T09:00:00.000Z', can_request_cancel: false, can_request_move: true });
  });
});

describe('a move request', () => {
  it('with three wished starts is taken, told with the starts in the patient\'s order, and shown in the status view', async () => {
    const { data } = await book(stack, { patient_name: 'Move Mo', appointment_time: '10:30' });
    const id = appointmentIdOf(stack.bff, data.reference);
    const starts = [
      { date: '2026-11-26', time: '10:00' },
      { date: '2026-11-25', time: '09:15' },
      { date: '2026-11-28', time: '12:45' },
    ];

    const res = await requestChange(api, { reference: data.reference, kind: 'move', preferred_starts: starts, message: 'Mornings are best.' });

    expect(res.status).toBe(201);
    expect(ChangeRequestResponse.parse(await res.json()).data).toMatchObject({ kind: 'move', already_requested: false });
    const told = await messagesAbout(stack.database, 'booking.move_requested', id);
    expect(told).toHaveLength(2);
    expect(told[0]?.event).toMatchObject({ preferred_starts: starts, message: 'Mornings are best.', patient: { name: 'Move Mo', phone: '+44 7700 900123' } });
    expect((await statusOf(stack, data.reference)).changes).toMatchObject({
      move_requested_at: '2026-11-23T09:00:00.000Z',
      move_preferred_starts: starts,
      can_request_move: false,
      can_request_cancel: true,
    });
  });

  it('a second time is already_requested, whatever its starts, and sends nothing', async () => {
    const { data } = await book(stack, { appointment_time: '11:00' });
    const id = appointmentIdOf(stack.bff, data.reference);
    await requestChange(api, { reference: data.reference, kind: 'move', preferred_starts: [{ date: '2026-11-26', time: '10:00' }] });

    const again = await requestChange(api, { reference: data.reference, kind: 'move', preferred_starts: [{ date: '2026-11-27', time: '11:00' }] });

    expect(again.status).toBe(200);
    expect(ChangeRequestResponse.parse(await again.json()).data.already_requested).toBe(true);
    expect(await messagesAbout(stack.database, 'booking.move_requested', id)).toHaveLength(2);
    expect((await statusOf(stack, data.reference)).changes?.move_preferred_starts).toEqual([{ date: '2026-11-26', time: '10:00' }]);
  });

  it.each([
    ['off the 15-minute grid', { date: '2026-11-26', time: '10:10' }, 'off_grid'],
    ['on a closed day (Sunday)', { date: '2026-11-29', time: '10:00' }, 'closed_day'],
    ['outside the day\'s hours', { date: '2026-11-28', time: '14:00' }, 'outside_hours'],
    ['inside the booking notice (120 minutes)', { date: '2026-11-23', time: '10:00' }, 'inside_notice'],
    ['already past', { date: '2026-11-23', time: '08:00' }, 'in_past'],
    ['beyond the booking horizon', { date: '2027-11-25', time: '10:00' }, 'beyond_horizon'],
  ])('with a start %s is refused with that start\'s reason, and nothing is taken', async (_case, bad, reason) => {
    const { data } = await book(stack, { appointment_time: nextTime() });
    const id = appointmentIdOf(stack.bff, data.reference);

    const res = await requestChange(api, { reference: data.reference, kind: 'move', preferred_starts: [{ date: '2026-11-26', time: '10:00' }, bad] });

    const message = await expectRefused(res, reason);
    expect(message).toContain(`preferred_starts.1 (${bad.date} ${bad.time})`);
    expect(await messagesAbout(stack.database, 'booking.move_requested', id)).toEqual([]);
    expect((await statusOf(stack, data.reference)).changes).toMatchObject({ move_requested_at: null, can_request_move: true });
  });

  it('with a start whose booked treatment would end after closing is refused ends_after_closing', async () => {
    const { treatmentLasting } = await fixtureIds(stack.bff);
    // 16:00 to 17:30, clear of every other test's booking whatever their order (both dentists may be taken at 12:30 and 13:00).
    const { data } = await book(stack, { appointment_time: '16:00', treatment_id: treatmentLasting(90) });

    // Saturday closes at 13:00: a 90-minute treatment at 12:00 would end at 13:30.
    const res = await requestChange(api, { reference: data.reference, kind: 'move', preferred_starts: [{ date: '2026-11-28', time: '12:00' }] });

    await expectRefused(res, 'ends_after_closing');
  });
});

describe('a clinic that takes only cancellations online', async () => {
  const cancelsOnly = await startChangesStack({ notifications: { changeRules: { minNoticeHours: 24, moveAllowed: false } } });

  it('refuses a move move_not_offered, takes a cancel, and says so in the status view', async () => {
    const { data } = await book(cancelsOnly, { appointment_time: '09:00' });
    const id = appointmentIdOf(cancelsOnly.bff, data.reference);

    const view = await statusOf(cancelsOnly, data.reference);
    const move = await requestChange(cancelsOnly.bff.api, { reference: data.reference, kind: 'move', preferred_starts: [{ date: '2026-11-26', time: '10:00' }] });
    const cancel = await requestChange(cancelsOnly.bff.api, { reference: data.reference, kind: 'cancel' });

    expect(view.changes).toMatchObject({ move_offered: false, can_request_move: false, can_request_cancel: true, closed_reason: null });
    expect(await expectRefused(move, 'move_not_offered')).toContain('only cancellations');
    expect(cancel.status).toBe(201);
    expect(await messagesAbout(cancelsOnly.database, 'booking.move_requested', id)).toEqual([]);
  });
});

describe('a booking the clinic changed itself', () => {
  it('cancelled by staff (the clinic CLI) shows Cancelled, closed already_cancelled, and refuses a request', async () => {
    const { data } = await book(stack, { appointment_time: '12:30' });
    const id = appointmentIdOf(stack.bff, data.reference);

    const cli = await clinicCli(stack.upstream.databaseUrl, ['appointments', 'set-status', '--id', String(id), '--status', 'Cancelled'], {}, stack.upstream.clock);
    const view = await statusOf(stack, data.reference);
    const refused = await requestChange(api, { reference: data.reference, kind: 'cancel' });

    expect(cli.code, cli.stderr).toBe(0);
    expect(view.status).toBe('Cancelled');
    expect(view.changes).toMatchObject({ closed_reason: 'already_cancelled', can_request_cancel: false, can_request_move: false });
    await expectRefused(refused, 'already_cancelled');
    expect(await messagesAbout(stack.database, 'booking.cancel_requested', id)).toEqual([]);
  });

  it('completed shows closed appointment_completed and refuses a move', async () => {
    const { data } = await book(stack, { appointment_time: '13:00' });
    const id = appointmentIdOf(stack.bff, data.reference);

    await clinicCli(stack.upstream.databaseUrl, ['appointments', 'set-status', '--id', String(id), '--status', 'Completed'], {}, stack.upstream.clock);

    expect((await statusOf(stack, data.reference)).changes?.closed_reason).toBe('appointment_completed');
    await expectRefused(
      await requestChange(api, { reference: data.reference, kind: 'move', preferred_starts: [{ date: '2026-11-26', time: '10:00' }] }),
      'appointment_completed',
    );
  });
});

describe('a reference', () => {
  it('that names no booking is 404, without asking the clinic system', async () => {
    const before = stack.upstreamHits('/appointments/status/1');

    const res = await requestChange(api, { reference: 'K7QF-2M9X-PA4T-Z3RW-8HNC', kind: 'cancel' });

    expect(res.status).toBe(404);
    expect(BffErrorBody.parse(await res.json()).error_code).toBe('not_found');
    expect(stack.upstreamHits('/appointments/status/1')).toBe(before);
  });
});

describe('a body the BFF refuses', () => {
  const reference = 'K7QF-2M9X-PA4T-Z3RW-8HNC';
  const start = (day: number) => ({ date: `2026-11-${day}`, time: '10:00' });

  it.each([
    ['without kind', { reference }, 'kind '],
    ['of an unknown kind', { reference, kind: 'postpone' }, 'kind '],
    ['moving without starts', { reference, kind: 'move' }, 'preferred_starts is required to move a booking'],
    ['moving to no start', { reference, kind: 'move', preferred_starts: [] }, 'preferred_starts must name at least one start'],
    ['moving to four starts', { reference, kind: 'move', preferred_starts: [start(25), start(26), start(27), start(28)] }, 'preferred_starts must name at most 3 starts'],
    ['naming a start twice', { reference, kind: 'move', preferred_starts: [start(25), start(26), start(25)] }, 'preferred_starts must name each start once'],
    ['cancelling with starts', { reference, kind: 'cancel', preferred_starts: [start(25)] }, 'preferred_starts is only for a move'],
    ['with a start that is no time', { reference, kind: 'move', preferred_starts: [{ date: '2026-11-25', time: '25:00' }] }, 'preferred_starts.0.time'],
    ['with a message over 500 characters', { reference, kind: 'cancel', message: 'x'.repeat(501) }, 'message must be at most 500 characters'],
    ['with a control character in its message', { reference, kind: 'cancel', message: 'call me\u0007' }, 'message must not contain control characters'],
    ['with an unknown field', { reference, kind: 'cancel', phone: '123' }, 'phone is not a known field'],
    ['without a reference', { kind: 'cancel' }, 'reference '],
  ])('%s is 400 validation_error naming the field', async (_case, body, words) => {
    const res = await requestChange(api, body);

    const answer = BffErrorBody.parse(await res.json());
    expect(res.status).toBe(400);
    expect(answer.error_code).toBe('validation_error');
    expect(answer.reason).toBeUndefined();
    expect(answer.message).toContain(words);
  });

  it('that is not JSON is 415, and one over 4 KiB is 413', async () => {
    const notJson = await fetch(`${api}/appointments/change-requests`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'cancel' });
    const tooLarge = await requestChange(api, { reference, kind: 'cancel', message: 'x'.repeat(5000) });

    expect(notJson.status).toBe(415);
    expect(tooLarge.status).toBe(413);
  });
});

describe('a BFF without its database', async () => {
  const bare = await startStack();

  it('answers a change request 503 database_unavailable, and a status view without changes', async () => {
    const { data } = await book(bare);

    const res = await requestChange(bare.bff.api, { reference: data.reference, kind: 'cancel' });

    expect(res.status).toBe(503);
    expect(BffErrorBody.parse(await res.json()).error_code).toBe('database_unavailable');
    expect((await statusOf(bare, data.reference)).changes).toBeUndefined();
  });
});

