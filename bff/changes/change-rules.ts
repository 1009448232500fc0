import type { ChangeView, PreferredStart } from '../../contract/bff-change-view.js';
import type { RefusalReason } from '../../contract/rules/bff-api.js';
import type { AppointmentStatus } from '../../contract/rules/appointment-status.js';
import { checkBookingWindow } from '../../contract/rules/booking-window.js';
import { clinicNow } from '../../contract/rules/clinic-now.js';
import type { ChangeRules, SiteNotifications } from '../notifications/notification-settings.js';

/** The kinds of change a patient may ask for: one request of each per booking. */
export type ChangeKind = 'cancel' | 'move';

/** A change request already taken for a booking. */
export interface ChangeRequestMade {
  kind: ChangeKind;
  /** When it was taken, ms since the epoch. */
  requestedAt: number;
  /** move: the wished starts, in the patient's order; cancel: none. */
  preferredStarts: readonly PreferredStart[];
}

/** What the change rules read of a booking: its status view's status, date and time (the clinic's wall clock). */
export interface BookingState {
  status: AppointmentStatus;
  date: string;
  time: string;
}

/** The horizon plays no part in a change: a century, far past any booking's (at most two years), so checkBookingWindow never says beyond_horizon. */
const NO_HORIZON_DAYS = 36_525;

/** Why neither request is taken now; move_not_offered is the move's alone (changeRefusal). */
export type ClosedReason = Extract<RefusalReason, 'already_cancelled' | 'appointment_completed' | 'in_past' | 'inside_change_window'>;

/**
 * Why no change request is taken for `booking` at `now` under the clinic's
 * rules, or null while they are: a Cancelled or Completed booking first (the
 * clinic's system has the last word), then its start already passed, then a
 * start closer than `minNoticeHours`. The window is checkBookingWindow's with
 * the notice in hours, read in the clinic's time zone as a booking's is: a
 * start exactly `minNoticeHours` ahead is still taken, a minute closer is not.
 */
export function closedReasonOf(booking: BookingState, now: Date, timeZone: string, rules: Pick<ChangeRules, 'minNoticeHours'>): ClosedReason | null {
  if (booking.status === 'Cancelled') return 'already_cancelled';
  if (booking.status === 'Completed') return 'appointment_completed';
  const clinic = clinicNow(now, timeZone, { minNoticeMinutes: rules.minNoticeHours * 60, horizonDays: NO_HORIZON_DAYS });
  const window = checkBookingWindow(clinic, booking.date, booking.time);
  if (window.within) return null;
  if (window.reason === 'in_past') return 'in_past';
  if (window.reason === 'inside_notice') return 'inside_change_window';
  return null;
}

/**
 * Why a new request of `kind` is refused (400 with this reason), or null
 * when it may be taken: closedReasonOf, then a move the clinic does not take
 * online. A request of a kind already made is not refused: it is answered
 * as already requested, and sends nothing.
 */
export function changeRefusal(kind: ChangeKind, booking: BookingState, now: Date, timeZone: string, rules: ChangeRules): RefusalReason | null {
  const closed = closedReasonOf(booking, now, timeZone, rules);
  if (closed) return closed;
  if (kind === 'move' && !rules.moveAllowed) return 'move_not_offered';
  return null;
}

/**
 * What a patient may still ask of `booking` (the status view's `changes`):
 * the requests made, and whether a new request of each kind would be taken
 * now. A kind already asked for is not open again (a second request is
 * answered already_requested and sends nothing); a move the clinic does not
 * take online is never open, without a closed_reason of its own.
 */
export function changeViewOf(
  booking: BookingState,
  now: Date,
  timeZone: string,
  notifications: Pick<SiteNotifications, 'changeRules' | 'bookingPageUrl'>,
  requests: readonly ChangeRequestMade[],
): ChangeView {
  const rules = notifications.changeRules;
  const cancel = requests.find((request) => request.kind === 'cancel');
  const move = requests.find((request) => request.kind === 'move');
  const closed = closedReasonOf(booking, now, timeZone, rules);
  return {
    cancel_requested_at: cancel ? new Date(cancel.requestedAt).toISOString() : null,
    move_requested_at: move ? new Date(move.requestedAt).toISOString() : null,
    move_preferred_starts: move ? move.preferredStarts.map(({ date, time }) => ({ date, time })) : [],
    can_request_cancel: closed === null && !cancel,
    can_request_move: closed === null && rules.moveAllowed && !move,
    closed_reason: closed,
    min_notice_hours: rules.minNoticeHours,
    move_offered: rules.moveAllowed,
    text: rules.text ?? null,
    booking_page_url: notifications.bookingPageUrl ?? null,
  };
}
