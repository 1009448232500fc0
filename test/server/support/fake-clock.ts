import type { Clock } from '../../../platform/clock.js';

/** A clock tests move by hand, so expiry and "in the past" never need sleeping. */
export class FakeClock implements Clock {
  private current: number;
  constructor(start: string | Date) {
    this.current = new Date(start).getTime();
  }
  now(): Date {
    return new Date(this.current);
  }
  advance(ms: number): void {
    this.current += ms;
  }
}

/** Monday 23 November 2026, 09:00 in London (GMT): the fixed "now" of most server tests. */
export const TEST_NOW = '2026-11-23T09:00:00Z';
