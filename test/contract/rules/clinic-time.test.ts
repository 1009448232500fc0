import { describe, expect, it } from 'vitest';
import { addDays, clinicLocalTime, minutesOf } from '../../../contract/rules/clinic-time.js';

describe('clinicLocalTime', () => {
  it('reads the date and 24-hour time of an instant in the clinic time zone', () => {
    expect(clinicLocalTime(new Date('2026-11-23T14:05:00Z'), 'Europe/London')).toEqual({ date: '2026-11-23', time: '14:05' });
  });

  it('writes the hour after midnight as 00, never 24', () => {
    expect(clinicLocalTime(new Date('2026-11-23T00:30:00Z'), 'Europe/London')).toEqual({ date: '2026-11-23', time: '00:30' });
  });

  it('moves to the previous calendar day west of UTC', () => {
    expect(clinicLocalTime(new Date('2026-11-23T03:00:00Z'), 'America/New_York')).toEqual({ date: '2026-11-22', time: '22:00' });
  });

  it('answers each time zone in its own offset when several are used in turn', () => {
    const instant = new Date('2026-07-01T12:00:00Z');
    expect(clinicLocalTime(instant, 'Asia/Tokyo')).toEqual({ date: '2026-07-01', time: '21:00' });
    expect(clinicLocalTime(instant, 'Europe/London')).toEqual({ date: '2026-07-01', time: '13:00' });
    expect(clinicLocalTime(instant, 'Asia/Tokyo')).toEqual({ date: '2026-07-01', time: '21:00' });
  });
});

describe('addDays', () => {
  it('adds days across the end of a month and of a year', () => {
    expect(addDays('2026-11-24', 1)).toBe('2026-11-25');
    expect(addDays('2026-11-30', 1)).toBe('2026-12-01');
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
  });

  it('adds a year of days, leap day included', () => {
    expect(addDays('2027-11-23', 365)).toBe('2028-11-22');
  });

  it('subtracts with a negative count', () => {
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28');
  });
});

describe('minutesOf', () => {
  it.each([
    ['00:00', 0],
    ['00:45', 45],
    ['09:30', 570],
    ['18:00', 1080],
    ['23:59', 1439],
  ])('counts %s as %d minutes since midnight', (time, minutes) => {
    expect(minutesOf(time)).toBe(minutes);
  });
});
