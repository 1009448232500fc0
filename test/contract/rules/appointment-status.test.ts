import { describe, expect, it } from 'vitest';
import { isAppointmentStatus } from '../../../contract/rules/appointment-status.js';

describe('isAppointmentStatus', () => {
  it.each(['Scheduled', 'Cancelled', 'Completed'])('is true for %s, a status the spec names', (status) => {
    expect(isAppointmentStatus(status)).toBe(true);
  });

  it.each(['scheduled', 'Confirmed', ''])('is false for %j', (status) => {
    expect(isAppointmentStatus(status)).toBe(false);
  });
});
