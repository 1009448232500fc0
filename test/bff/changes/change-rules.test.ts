import { describe, expect, it } from 'vitest';
import { ChangeView } from '../../../contract/bff-change-view.js';
import { changeRefusal, changeViewOf, closedReasonOf, type BookingState, type ChangeRequestMade } from '../../../bff/changes/change-rules.js';
import type { ChangeRules } from '../../../bff/notifications/notification-settings.js';

/**
 * The change rules alone (bff/changes/change-rules.ts): what a patient may
 * still ask of a booking, from its status, its start, the clinic's time now
 * and its change rules. The HTTP tests (change-requests.test.ts) meet the
 * same rules through the BFF.
 */

const LONDON = 'Europe/London';
const RULES: ChangeRules = { minNoticeHours: 24, moveAllowed: true };
const scheduled = (date: string, time: string): BookingState => ({ status: 'Scheduled', date, time });
/** Tuesday 24 November 2026, 11:00 in London (GMT, so 11:00Z). */
const BOOKING = scheduled('2026-11-24', '11:00');

describe('closedReasonOf', () => {
  it('takes a request for a start exactly minNoticeHours ahead', () => {
    expect(closedReasonOf(BOOKING, new Date('2026-11-23T11:00:00Z'), LONDON, RULES)).toBeNull();
  });

  it('is inside_change_window one minute later, and one second later', () => {
    expect(closedReasonOf(BOOKING, new Date('2026-11-23T11:01:00Z'), LONDON, RULES)).toBe('inside_change_window');
    expect(closedReasonOf(BOOKING, new Date('2026-11-23T11:00:01Z'), LONDON, RULES)).toBe('inside_change_window');
  });

  it('reads the start in the clinic\'s zone: 11:00 in New York is 16:00Z', () => {
    expect(closedReasonOf(BOOKING, new Date('2026-11-23T16:00:00Z'), 'America/New_York', RULES)).toBeNull();
    expect(closedReasonOf(BOOKING, new Date('2026-11-23T16:01:00Z'), 'America/New_York', RULES)).toBe('inside_change_window');
  });

  it('is in_past from the start on (a start this very minute has passed)', () => {
    expect(closedReasonOf(BOOKING, new Date('2026-11-24T10:59:00Z'), LONDON, RULES)).toBe('inside_change_window');
    expect(closedReasonOf(BOOKING, new Date('2026-11-24T11:00:00Z'), LONDON, RULES)).toBe('in_past');
    expect(closedReasonOf(BOOKING, new Date('2026-12-01T09:00:00Z'), LONDON, RULES)).toBe('in_past');
  });

  it('with a window of 0 hours takes a request until the start', () => {
    const rules = { ...RULES, minNoticeHours: 0 };

    expect(closedReasonOf(BOOKING, new Date('2026-11-24T10:59:00Z'), LONDON, rules)).toBeNull();
    expect(closedReasonOf(BOOKING, new Date('2026-11-24T11:00:00Z'), LONDON, rules)).toBe('in_past');
  });

  it('names a Cancelled or Completed booking before its time', () => {
    const now = new Date('2026-11-23T09:00:00Z');

    expect(closedReasonOf({ ...BOOKING, status: 'Cancelled' }, now, LONDON, RULES)).toBe('already_cancelled');
    expect(closedReasonOf({ ...BOOKING, status: 'Completed' }, now, LONDON, RULES)).toBe('appointment_completed');
    expect(closedReasonOf({ ...BOOKING, status: 'Cancelled' }, new Date('2026-12-01T09:00:00Z'), LONDON, RULES)).toBe('already_cancelled');
  });

  it('never says a far booking is beyond any horizon', () => {
    expect(closedReasonOf(scheduled('2028-11-24', '11:00'), new Date('2026-11-23T09:00:00Z'), LONDON, { ...RULES, minNoticeHours: 720 })).toBeNull();
  });
});

describe('changeRefusal', () => {
  const now = new Date('2026-11-23T09:00:00Z');

  it('refuses a move the clinic does not take online, and takes its cancel', () => {
    const rules = { ...RULES, moveAllowed: false };

    expect(changeRefusal('move', BOOKING, now, LONDON, rules)).toBe('move_not_offered');
    expect(changeRefusal('cancel', BOOKING, now, LONDON, rules)).toBeNull();
  });

  it('says why a closed booking is closed before saying a move is not offered', () => {
    expect(changeRefusal('move', { ...BOOKING, status: 'Cancelled' }, now, LONDON, { ...RULES, moveAllowed: false })).toBe('already_cancelled');
  });
});

describe('changeViewOf', () => {
  const now = new Date('2026-11-23T09:00:00Z');
  const cancel: ChangeRequestMade = { kind: 'cancel', requestedAt: Date.parse('2026-11-23T08:00:00Z'), preferredStarts: [] };
  const move: ChangeRequestMade = {
    kind: 'move',
    requestedAt: Date.parse('2026-11-23T08:30:00Z'),
    preferredStarts: [
      { date: '2026-11-26', time: '10:00' },
      { date: '2026-11-25', time: '09:15' },
    ],
  };

  it('opens both actions on a Scheduled booking outside the window, with the clinic\'s words and page', () => {
    const view = changeViewOf(BOOKING, now, LONDON, { changeRules: { ...RULES, text: 'Cancel a day ahead, please.' }, bookingPageUrl: 'https://clinic.example/book' }, []);

    expect(ChangeView.parse(view)).toEqual({
      cancel_requested_at: null,
      move_requested_at: null,
      move_preferred_starts: [],
      can_request_cancel: true,
      can_request_move: true,
      closed_reason: null,
      min_notice_hours: 24,
      move_offered: true,
      text: 'Cancel a day ahead, please.',
      booking_page_url: 'https://clinic.example/book',
    });
  });

  it('shows the requests made, each kind no longer open, the wished starts in the patient\'s order', () => {
    const view = changeViewOf(BOOKING, now, LONDON, { changeRules: RULES }, [move, cancel]);

    expect(view).toMatchObject({
      cancel_requested_at: '2026-11-23T08:00:00.000Z',
      move_requested_at: '2026-11-23T08:30:00.000Z',
      move_preferred_starts: move.preferredStarts,
      can_request_cancel: false,
      can_request_move: false,
      closed_reason: null,
      text: null,
      booking_page_url: null,
    });
  });

  it('leaves a move open after a cancel request, and the reverse', () => {
    expect(changeViewOf(BOOKING, now, LONDON, { changeRules: RULES }, [cancel])).toMatchObject({ can_request_cancel: false, can_request_move: true });
    expect(changeViewOf(BOOKING, now, LONDON, { changeRules: RULES }, [move])).toMatchObject({ can_request_cancel: true, can_request_move: false });
  });

  it('never opens a move the clinic does not offer, without a closed_reason for it', () => {
    const view = changeViewOf(BOOKING, now, LONDON, { changeRules: { ...RULES, moveAllowed: false } }, []);

    expect(view).toMatchObject({ can_request_cancel: true, can_request_move: false, move_offered: false, closed_reason: null });
  });

  it('closes both actions with the reason, the requests still shown', () => {
    const view = changeViewOf({ ...BOOKING, status: 'Cancelled' }, now, LONDON, { changeRules: RULES }, [cancel]);

    expect(view).toMatchObject({
      cancel_requested_at: '2026-11-23T08:00:00.000Z',
      can_request_cancel: false,
      can_request_move: false,
      closed_reason: 'already_cancelled',
    });
  });
});
