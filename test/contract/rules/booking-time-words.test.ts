import { describe, expect, it } from 'vitest';
import { bookingTimeSentence } from '../../../contract/rules/booking-time-words.js';
import { checkBookingWindow } from '../../../contract/rules/booking-window.js';
import { clinicNow } from '../../../contract/rules/clinic-now.js';
import { checkOpeningHours, type OpeningHours } from '../../../contract/rules/opening-hours.js';

/**
 * The words integrators read for a booking refused for its time: the
 * reference server's 400 and the BFF's say exactly these, after "Invalid
 * request: " (test/bff/booking/booking-window-parity.test.ts holds both to it).
 */
const NOW = clinicNow(new Date('2026-11-23T09:00:00Z'), 'Europe/London', { minNoticeMinutes: 90, horizonDays: 30 });
const TUESDAY = { open: '08:00', close: '18:00', is_closed: false };
const HOURS: OpeningHours = { Tuesday: TUESDAY };

function windowSentence(date: string, time: string): string {
  const verdict = checkBookingWindow(NOW, date, time);
  if (verdict.within) throw new Error(`${date} ${time} is within the window`);
  return bookingTimeSentence(verdict);
}

function hoursSentence(date: string, time: string, durationMinutes?: number): string {
  const verdict = checkOpeningHours(HOURS, date, time, durationMinutes);
  if (verdict.open) throw new Error(`${date} ${time} is within the opening hours`);
  return bookingTimeSentence(verdict);
}

describe('bookingTimeSentence', () => {
  it('names the clinic’s time and zone for a start in the past', () => {
    expect(windowSentence('2026-11-23', '08:30')).toBe(
      'appointment_date and appointment_time are in the past (clinic time Europe/London: 2026-11-23 09:00)',
    );
  });

  it('names the notice, its setting and the earliest start for a start too soon', () => {
    expect(windowSentence('2026-11-23', '10:15')).toBe(
      'appointment_date and appointment_time must be at least 90 minutes ahead (min_notice_minutes): ' +
        'the earliest is 2026-11-23 10:30 (clinic time Europe/London)',
    );
  });

  it('names the horizon, its setting and the last date for a day too far', () => {
    expect(windowSentence('2026-12-24', '10:00')).toBe(
      'appointment_date must be within 30 days from today (horizon_days): the last is 2026-12-23',
    );
  });

  it('names the day the clinic is closed', () => {
    expect(hoursSentence('2026-11-25', '10:00')).toBe('the clinic is closed on Wednesday');
  });

  it('names the day and its hours for a start outside them', () => {
    expect(hoursSentence('2026-11-24', '07:45')).toBe(
      'appointment_time must be within opening hours on Tuesday (08:00-18:00)',
    );
  });

  it('names the treatment’s length, the closing time and the day for one ending after closing', () => {
    expect(hoursSentence('2026-11-24', '17:00', 90)).toBe(
      'the treatment takes 90 minutes and would end after closing time (18:00) on Tuesday',
    );
  });
});
