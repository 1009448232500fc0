import { describe, expect, it } from 'vitest';
import { BffErrorBody } from '../../../contract/bff.js';
import { FakeClock, TEST_NOW } from '../../support/fake-clock.js';
import { book, requestChange, startChangesStack, statusOf } from './support/changes-stack.js';

/**
 * The clinic's change window through the BFF, its clock moved by hand: two
 * bookings on Tuesday 24 November 2026 at 11:00 in London (11:00Z), one on
 * Wednesday at 11:00, and the default window of 24 hours. At Monday
 * 11:00:00Z the start is exactly 24 hours ahead: taken. A minute later it is
 * inside the window: refused, as the status view says beforehand. From the
 * start on, in_past. Each test has a booking of its own and sets the clock
 * itself, so they pass in any order (CI shuffles them).
 */

const clock = new FakeClock(TEST_NOW);
const stack = await startChangesStack({ clock });
const api = stack.bff.api;
const first = (await book(stack, { appointment_time: '11:00' })).data.reference;
const second = (await book(stack, { appointment_time: '11:00' })).data.reference;
const third = (await book(stack, { appointment_date: '2026-11-25', appointment_time: '11:00' })).data.reference;

async function refusedFor(res: Response): Promise<string | undefined> {
  expect(res.status).toBe(400);
  return BffErrorBody.parse(await res.json()).reason;
}

describe('the change window of 24 hours', () => {
  it('takes a request exactly 24 hours before the start, as the status view said', async () => {
    clock.set('2026-11-23T11:00:00Z');

    const view = await statusOf(stack, first);
    const res = await requestChange(api, { reference: first, kind: 'cancel' });

    expect(view.changes).toMatchObject({ can_request_cancel: true, can_request_move: true, closed_reason: null });
    expect(res.status).toBe(201);
  });

  it('refuses one a minute closer inside_change_window, as the status view says', async () => {
    clock.set('2026-11-23T11:01:00Z');

    const view = await statusOf(stack, second);
    const cancel = await requestChange(api, { reference: second, kind: 'cancel' });
    const move = await requestChange(api, { reference: second, kind: 'move', preferred_starts: [{ date: '2026-11-26', time: '10:00' }] });

    expect(view.changes).toMatchObject({ can_request_cancel: false, can_request_move: false, closed_reason: 'inside_change_window' });
    expect(await refusedFor(cancel)).toBe('inside_change_window');
    expect(await refusedFor(move)).toBe('inside_change_window');
  });

  it('refuses a request from the start on in_past, and still shows the one taken before', async () => {
    clock.set('2026-11-24T11:00:00Z');
    expect((await requestChange(api, { reference: third, kind: 'cancel' })).status).toBe(201);
    clock.set('2026-11-25T11:00:00Z');

    const view = await statusOf(stack, third);
    const res = await requestChange(api, { reference: third, kind: 'move', preferred_starts: [{ date: '2026-11-26', time: '10:00' }] });

    expect(view.changes).toMatchObject({ cancel_requested_at: '2026-11-24T11:00:00.000Z', closed_reason: 'in_past', can_request_cancel: false });
    expect(await refusedFor(res)).toBe('in_past');
  });
});
