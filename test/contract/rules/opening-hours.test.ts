import { describe, expect, it } from 'vitest';
import { DAY_NAMES } from '../../../contract/rules/days.js';
import { checkOpeningHours, dayNameOf, type OpeningHours } from '../../../contract/rules/opening-hours.js';

/** Tuesday 08:00-18:00, Wednesday marked closed, every other day left out (closed). */
const TUESDAY = { open: '08:00', close: '18:00', is_closed: false };
const HOURS: OpeningHours = { Tuesday: TUESDAY, Wednesday: { open: '08:00', close: '18:00', is_closed: true } };
const A_TUESDAY = '2026-11-24';

describe('dayNameOf', () => {
  it('names each day of a week, Monday to Sunday', () => {
    const week = ['2026-11-23', '2026-11-24', '2026-11-25', '2026-11-26', '2026-11-27', '2026-11-28', '2026-11-29'];
    expect(week.map(dayNameOf)).toEqual([...DAY_NAMES]);
  });

  it('names the first day of a month and a leap day', () => {
    expect(dayNameOf('2026-12-01')).toBe('Tuesday');
    expect(dayNameOf('2028-02-29')).toBe('Tuesday');
  });
});

describe('checkOpeningHours', () => {
  it('finds a start within the hours open, with the day and its hours', () => {
    expect(checkOpeningHours(HOURS, A_TUESDAY, '10:00')).toEqual({ open: true, day: 'Tuesday', hours: TUESDAY });
  });

  it('finds a start at opening time open', () => {
    expect(checkOpeningHours(HOURS, A_TUESDAY, '08:00')).toEqual({ open: true, day: 'Tuesday', hours: TUESDAY });
  });

  it('finds a start a minute before closing open when the length is unknown', () => {
    expect(checkOpeningHours(HOURS, A_TUESDAY, '17:59')).toEqual({ open: true, day: 'Tuesday', hours: TUESDAY });
  });

  it('answers closed_day for a day marked closed', () => {
    expect(checkOpeningHours(HOURS, '2026-11-25', '10:00')).toEqual({ open: false, reason: 'closed_day', day: 'Wednesday' });
  });

  it('answers closed_day for a day left out of opening_hours', () => {
    expect(checkOpeningHours(HOURS, '2026-11-23', '10:00')).toEqual({ open: false, reason: 'closed_day', day: 'Monday' });
  });

  it.each(['07:59', '18:00', '18:30'])('answers outside_hours for a start at %s', (time) => {
    expect(checkOpeningHours(HOURS, A_TUESDAY, time)).toEqual({ open: false, reason: 'outside_hours', day: 'Tuesday', hours: TUESDAY });
  });

  it('finds a treatment that ends exactly at closing open', () => {
    expect(checkOpeningHours(HOURS, A_TUESDAY, '17:30', 30)).toEqual({ open: true, day: 'Tuesday', hours: TUESDAY });
  });

  it('answers ends_after_closing, with the length, for a treatment that ends a minute after closing', () => {
    expect(checkOpeningHours(HOURS, A_TUESDAY, '17:31', 30)).toEqual({
      open: false,
      reason: 'ends_after_closing',
      day: 'Tuesday',
      hours: TUESDAY,
      durationMinutes: 30,
    });
  });
});
