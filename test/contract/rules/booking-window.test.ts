import { describe, expect, it } from 'vitest';
import { checkBookingWindow } from '../../../contract/rules/booking-window.js';
import { clinicNow } from '../../../contract/rules/clinic-now.js';

/** Monday 23 November 2026, 09:00 in London, with the default rules: 120 minutes of notice, 365 days of horizon. */
const NOW = clinicNow(new Date('2026-11-23T09:00:00Z'), 'Europe/London');
const reasonOf = (date: string, time: string, now = NOW) => {
  const verdict = checkBookingWindow(now, date, time);
  return verdict.within ? 'within' : verdict.reason;
};

describe('checkBookingWindow', () => {
  it.each([
    ['a day already past', '2026-11-22', '23:59', 'in_past'],
    ['a start a minute ago', '2026-11-23', '08:59', 'in_past'],
    ['a start at this very minute', '2026-11-23', '09:00', 'in_past'],
    ['a start a minute ahead, inside the notice', '2026-11-23', '09:01', 'inside_notice'],
    ['a start a minute short of the notice', '2026-11-23', '10:59', 'inside_notice'],
    ['a start exactly the notice ahead', '2026-11-23', '11:00', 'within'],
    ['the last day of the horizon, at its last minute', '2027-11-23', '23:59', 'within'],
    ['the day after the horizon, at its first minute', '2027-11-24', '00:00', 'beyond_horizon'],
  ])('reads %s (%s %s) as %s', (_case, date, time, reason) => {
    expect(reasonOf(date, time)).toBe(reason);
  });

  it('refuses with the reading it checked against, which a refusal names', () => {
    const verdict = checkBookingWindow(NOW, '2026-11-23', '10:00');

    expect(verdict).toEqual({ within: false, reason: 'inside_notice', now: NOW });
    expect(!verdict.within && verdict.now).toBe(NOW);
  });

  it('lets a start in with nothing else to say', () => {
    expect(checkBookingWindow(NOW, '2026-11-24', '10:00')).toEqual({ within: true });
  });

  it('carries a day’s notice into the next day, in the clinic’s zone', () => {
    const dayAhead = clinicNow(new Date('2026-11-23T09:00:00Z'), 'Europe/London', { minNoticeMinutes: 1440, horizonDays: 30 });

    expect(reasonOf('2026-11-23', '17:00', dayAhead)).toBe('inside_notice');
    expect(reasonOf('2026-11-24', '08:59', dayAhead)).toBe('inside_notice');
    expect(reasonOf('2026-11-24', '09:00', dayAhead)).toBe('within');
    expect(reasonOf('2026-12-23', '09:00', dayAhead)).toBe('within');
    expect(reasonOf('2026-12-24', '09:00', dayAhead)).toBe('beyond_horizon');
  });

  it('reads "now" in the clinic’s zone, not in UTC', () => {
    // 09:00 UTC is 04:00 in New York, on the same day; 11:00 UTC is 20:00 in Tokyo.
    const newYork = clinicNow(new Date('2026-11-23T09:00:00Z'), 'America/New_York', { minNoticeMinutes: 0, horizonDays: 0 });
    const tokyo = clinicNow(new Date('2026-11-23T11:00:00Z'), 'Asia/Tokyo', { minNoticeMinutes: 0, horizonDays: 1 });

    expect([reasonOf('2026-11-23', '04:00', newYork), reasonOf('2026-11-23', '04:01', newYork)]).toEqual(['in_past', 'within']);
    expect([reasonOf('2026-11-23', '20:00', tokyo), reasonOf('2026-11-23', '20:01', tokyo)]).toEqual(['in_past', 'within']);
    expect(reasonOf('2026-11-24', '09:00', newYork)).toBe('beyond_horizon');
  });

  it('takes the next minute with no notice, and today only with no horizon', () => {
    const noNotice = clinicNow(new Date('2026-11-23T09:00:30Z'), 'Europe/London', { minNoticeMinutes: 0, horizonDays: 0 });

    expect(reasonOf('2026-11-23', '09:00', noNotice)).toBe('in_past');
    expect(reasonOf('2026-11-23', '09:01', noNotice)).toBe('within');
    expect(reasonOf('2026-11-23', '23:59', noNotice)).toBe('within');
    expect(reasonOf('2026-11-24', '00:00', noNotice)).toBe('beyond_horizon');
  });

  it('calls a start both past and inside the notice "in the past", not "too soon"', () => {
    // 08:59 is also sooner than the notice: the rule read first names it.
    expect(reasonOf('2026-11-23', '08:59')).toBe('in_past');
    expect(reasonOf('2026-11-23', '09:00')).toBe('in_past');
  });
});
