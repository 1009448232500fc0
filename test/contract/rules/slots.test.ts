import { describe, expect, it } from 'vitest';
import { candidateSlots, dayHasSlot } from '../../../contract/rules/slots.js';
import type { OpeningHours } from '../../../contract/rules/opening-hours.js';

const A_TUESDAY = '2026-11-24';
const hoursOnTuesday = (open: string, close: string, is_closed = false): OpeningHours => ({ Tuesday: { open, close, is_closed } });

describe('candidateSlots', () => {
  it('offers every quarter hour from opening to the last start that ends by closing', () => {
    expect(candidateSlots(hoursOnTuesday('08:00', '09:30'), A_TUESDAY)).toEqual(['08:00', '08:15', '08:30', '08:45', '09:00', '09:15']);
  });

  it('rounds an opening off the grid up to the next quarter hour', () => {
    expect(candidateSlots(hoursOnTuesday('09:10', '10:15'), A_TUESDAY)).toEqual(['09:15', '09:30', '09:45', '10:00']);
  });

  it("ends with the last start that leaves room for the treatment's length", () => {
    expect(candidateSlots(hoursOnTuesday('14:00', '15:30'), A_TUESDAY, 45)).toEqual(['14:00', '14:15', '14:30', '14:45']);
  });

  it('offers afternoon starts with two-digit hours and minutes', () => {
    expect(candidateSlots(hoursOnTuesday('13:45', '14:15'), A_TUESDAY)).toEqual(['13:45', '14:00']);
  });

  it('offers nothing on a day marked closed or left out', () => {
    expect(candidateSlots(hoursOnTuesday('08:00', '18:00', true), A_TUESDAY)).toEqual([]);
    expect(candidateSlots(hoursOnTuesday('08:00', '18:00'), '2026-11-23')).toEqual([]);
  });

  it('offers nothing when the treatment is longer than the day', () => {
    expect(candidateSlots(hoursOnTuesday('08:00', '09:00'), A_TUESDAY, 90)).toEqual([]);
  });
});

describe('dayHasSlot', () => {
  const hours = hoursOnTuesday('08:00', '09:00');

  it('is true for an open day with a start, and false for a closed one', () => {
    expect(dayHasSlot(hours, A_TUESDAY)).toBe(true);
    expect(dayHasSlot(hours, '2026-11-23')).toBe(false);
  });

  it('is false when the treatment fits no start that day', () => {
    expect(dayHasSlot(hours, A_TUESDAY, 90)).toBe(false);
  });

  it('with a time, is true while a start later than it remains', () => {
    expect(dayHasSlot(hours, A_TUESDAY, undefined, '08:00')).toBe(true);
    expect(dayHasSlot(hours, A_TUESDAY, undefined, '08:44')).toBe(true);
  });

  it('with a time, is false once the last start is not later than it', () => {
    expect(dayHasSlot(hours, A_TUESDAY, undefined, '08:45')).toBe(false);
    expect(dayHasSlot(hours, A_TUESDAY, undefined, '12:00')).toBe(false);
  });

  it('with a time, is false on a closed day', () => {
    expect(dayHasSlot(hours, '2026-11-23', undefined, '00:00')).toBe(false);
  });
});
