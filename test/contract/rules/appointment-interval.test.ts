import { describe, expect, it } from 'vitest';
import { appointmentEnd } from '../../../contract/rules/appointment-interval.js';

describe('appointmentEnd', () => {
  it.each([
    ['10:00', 60, '11:00'],
    ['09:45', 30, '10:15'],
    ['08:05', 5, '08:10'],
    ['17:30', 600, '24:00'],
    ['23:50', 10, '24:00'],
    ['00:00', 90, '01:30'],
  ])('ends an appointment at %s lasting %i minutes at %s', (start, minutes, end) => {
    expect(appointmentEnd(start, minutes)).toBe(end);
  });
});
