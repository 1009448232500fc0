import { describe, expect, it } from 'vitest';
import type { BookingRules } from '../../../contract/rules/booking-rules.js';
import { ClinicNowReadings, clinicNow } from '../../../contract/rules/clinic-now.js';
import { addDays } from '../../../contract/rules/clinic-time.js';
import { LIMITS } from '../../../contract/rules/limits.js';

// The clinic's "now" (bookings on the server, availability in the BFF) is kept for the rest of its UTC second
// (one reading per zone): these ask in turn, as bookings do.

describe('clinicNow', () => {
  it('reads the clinic’s date and time, and the last bookable date that far ahead, naming the zone and window it read them with', () => {
    expect(clinicNow(new Date('2026-11-23T03:00:00Z'), 'America/New_York')).toEqual({
      date: '2026-11-22',
      time: '22:00',
      timeZone: 'America/New_York',
      window: { minNoticeMinutes: 120, horizonDays: LIMITS.bookingHorizonDays },
      earliest: { date: '2026-11-23', time: '00:00' },
      lastBookableDate: addDays('2026-11-22', LIMITS.bookingHorizonDays),
    });
  });

  it('puts the earliest bookable minute the notice after now, rounded up to a whole minute, and the horizon that many days ahead', () => {
    const now = clinicNow(new Date('2026-11-23T14:06:30Z'), 'Europe/London', { minNoticeMinutes: 90, horizonDays: 7 });

    expect(now).toMatchObject({ date: '2026-11-23', time: '14:06', earliest: { date: '2026-11-23', time: '15:37' }, lastBookableDate: '2026-11-30' });
  });

  it('takes the earliest minute exactly the notice ahead when now is a whole minute, and no notice as now itself', () => {
    const instant = new Date('2026-11-23T14:06:00Z');

    expect(clinicNow(instant, 'Europe/London', { minNoticeMinutes: 120, horizonDays: 1 }).earliest).toEqual({ date: '2026-11-23', time: '16:06' });
    expect(clinicNow(instant, 'Europe/London', { minNoticeMinutes: 0, horizonDays: 0 })).toMatchObject({
      date: '2026-11-23',
      time: '14:06',
      earliest: { date: '2026-11-23', time: '14:06' },
      lastBookableDate: '2026-11-23',
    });
  });

  it('carries the notice across midnight into the next day, in the clinic’s zone', () => {
    const now = clinicNow(new Date('2026-11-23T22:30:00Z'), 'Europe/London', { minNoticeMinutes: 120, horizonDays: 365 });

    expect(now.earliest).toEqual({ date: '2026-11-24', time: '00:30' });
  });

  it('answers each window its own reading within one second (two clinics in one zone with other rules)', () => {
    const instant = new Date('2026-11-23T10:00:00.100Z');
    const strict = clinicNow(instant, 'Europe/Paris', { minNoticeMinutes: 1440, horizonDays: 30 });
    const relaxed = clinicNow(new Date('2026-11-23T10:00:00.600Z'), 'Europe/Paris', { minNoticeMinutes: 0, horizonDays: 365 });

    expect([strict.earliest, strict.lastBookableDate]).toEqual([{ date: '2026-11-24', time: '11:00' }, '2026-12-23']);
    expect([relaxed.earliest, relaxed.lastBookableDate]).toEqual([{ date: '2026-11-23', time: '11:00' }, '2027-11-23']);
  });

  it('reads the next minute, and the next day’s horizon, as soon as the clock reaches them', () => {
    expect(clinicNow(new Date('2026-11-23T14:05:59.900Z'), 'Europe/London').time).toBe('14:05');
    expect(clinicNow(new Date('2026-11-23T14:06:00.000Z'), 'Europe/London').time).toBe('14:06');
    const beforeMidnight = clinicNow(new Date('2026-11-23T23:59:59.999Z'), 'Europe/London');
    const afterMidnight = clinicNow(new Date('2026-11-24T00:00:00.001Z'), 'Europe/London');
    expect([beforeMidnight.date, beforeMidnight.time]).toEqual(['2026-11-23', '23:59']);
    expect([afterMidnight.date, afterMidnight.time]).toEqual(['2026-11-24', '00:00']);
    expect(afterMidnight.lastBookableDate).toBe(addDays(beforeMidnight.lastBookableDate, 1));
  });

  it('answers each zone in its own offset when several ask within one second', () => {
    const instant = new Date('2026-07-01T12:00:00.250Z');
    expect(clinicNow(instant, 'Asia/Tokyo').time).toBe('21:00');
    expect(clinicNow(instant, 'Europe/London').time).toBe('13:00');
    expect(clinicNow(new Date('2026-07-01T12:00:00.750Z'), 'Asia/Tokyo').time).toBe('21:00');
  });

  it('reads two local minutes inside one UTC minute where the offset was not whole minutes (Monrovia, UTC-00:44:30 until 1972)', () => {
    expect(clinicNow(new Date('1971-06-01T12:00:10Z'), 'Africa/Monrovia').time).toBe('11:15');
    expect(clinicNow(new Date('1971-06-01T12:00:40Z'), 'Africa/Monrovia').time).toBe('11:16');
  });

  it('keeps only the notice and horizon of the rules it is given', () => {
    const rules: BookingRules = { minNoticeMinutes: 30, horizonDays: 14, defaultDurationMinutes: 45 };

    const now = clinicNow(new Date('2026-11-23T14:06:00Z'), 'Europe/London', rules);

    expect(now.window).toEqual({ minNoticeMinutes: 30, horizonDays: 14 });
    expect(Object.isFrozen(now.window)).toBe(true);
  });

  it('answers the same reading to every booking in one second, and none of them can change it for the next', () => {
    const readings = new ClinicNowReadings();
    const first = readings.at(new Date('2026-11-23T09:30:00.100Z'), 'Europe/London');
    expect(readings.at(new Date('2026-11-23T09:30:00.800Z'), 'Europe/London')).toBe(first);
    expect(() => {
      (first as { time: string }).time = '10:00';
    }).toThrow(TypeError);
    expect(readings.at(new Date('2026-11-23T09:30:00.900Z'), 'Europe/London').time).toBe('09:30');
  });

  it('keeps a reading only for its own second, its own zone and window', () => {
    const readings = new ClinicNowReadings();
    const first = readings.at(new Date('2026-11-23T09:30:59.900Z'), 'Europe/London');

    expect(readings.at(new Date('2026-11-23T09:31:00.000Z'), 'Europe/London').time).toBe('09:31');
    expect(readings.at(new Date('2026-11-23T09:30:59.950Z'), 'Europe/Paris').time).toBe('10:30');
    expect(readings.at(new Date('2026-11-23T09:30:59.950Z'), 'Europe/London', { minNoticeMinutes: 0, horizonDays: 1 })).not.toBe(first);
  });

  it('keeps readings apart for each owner: two apps in one process share none', () => {
    const instant = new Date('2026-11-23T09:30:00.100Z');
    const mine = new ClinicNowReadings().at(instant, 'Europe/London');

    const theirs = new ClinicNowReadings().at(instant, 'Europe/London');

    expect(theirs).not.toBe(mine);
    expect(theirs).toEqual(mine);
  });

  it('is the pure clinicNow: the same answer, worked out afresh on each call without the memo', () => {
    const instant = new Date('2026-11-23T09:30:00.100Z');

    expect(clinicNow(instant, 'Europe/London')).not.toBe(clinicNow(instant, 'Europe/London'));
    expect(new ClinicNowReadings().at(instant, 'Europe/London')).toEqual(clinicNow(instant, 'Europe/London'));
  });
});
