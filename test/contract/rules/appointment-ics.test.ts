import ICAL from 'ical.js';
import { describe, expect, it } from 'vitest';
import { folded, icsFile } from '../../../contract/rules/appointment-ics.js';

/** The calendar file the widget downloads and the confirmation e-mail attaches: one builder. */
describe('icsFile', () => {
  const appointment = {
    title: 'تنظيف الأسنان الاحترافي، عيادة الشمس لطب الأسنان في وسط المدينة',
    address: 'Hauptstraße 12, 10115 Berlin',
    date: '2026-12-03',
    time: '09:30',
    minutes: 45,
    zone: 'Europe/Berlin',
    reference: 'K7QF-2M9X-PA4T-Z3RW-8HNC',
    description: 'Gérer le rendez-vous : https://sonnenhof.example/termin#clinic-booking-manage=K7QF-2M9X-PA4T-Z3RW-8HNC',
  };

  it('folds every line at 75 octets (RFC 5545), never inside a character, and a parser reads it back whole', () => {
    const file = icsFile(appointment, new Date('2026-11-23T09:00:00Z'));
    for (const line of file.split('\r\n')) expect(Buffer.byteLength(line)).toBeLessThanOrEqual(75);
    expect(file.endsWith('END:VCALENDAR\r\n')).toBe(true);

    const event = new ICAL.Event(new ICAL.Component(ICAL.parse(file)).getFirstSubcomponent('vevent')!);
    expect(event.summary).toBe(appointment.title);
    expect(event.description).toBe(appointment.description);
    expect(event.uid).toBe('K7QF-2M9X-PA4T-Z3RW-8HNC@clinic-booking');
    // 09:30 in Berlin in December is 08:30 UTC.
    expect(event.startDate.toJSDate().toISOString()).toBe('2026-12-03T08:30:00.000Z');
  });

  it('leaves a short line alone, and splits a long one into 75 then 74 octets after each space', () => {
    expect(folded('SUMMARY:Check-up')).toBe('SUMMARY:Check-up');
    const long = `DESCRIPTION:${'a'.repeat(200)}`;
    const lines = folded(long).split('\r\n');
    // 212 octets: 75, then 74 and 63 after their spaces.
    expect(lines.map((line) => line.length)).toEqual([75, 75, 64]);
    expect(lines.slice(1).every((line) => line.startsWith(' '))).toBe(true);
    expect(lines.map((line, i) => (i === 0 ? line : line.slice(1))).join('')).toBe(long);
  });
});
