import type { Clock } from '../../platform/clock.js';

/** Monday 23 November 2026, 09:00 in London (GMT): the fixed "now" of the server's and the BFF's tests. */
export const TEST_NOW = '2026-11-23T09:00:00Z';

/**
 * The one clock tests move by hand, for everything that reads time through
 * a `Clock`: token expiry, "in the past", and every clock-driven cache (the
 * BFF's content cache, booking facts, dentist memory, taken slots). Tests
 * move it instead of sleeping, so an expiry is reached exactly, never waited
 * out. `now` is a bound arrow, so a cache may keep `clock.now` on its own.
 */
export class FakeClock implements Clock {
  private current: number;

  constructor(start: string | number | Date = TEST_NOW) {
    this.current = new Date(start).getTime();
  }

  readonly now = (): Date => new Date(this.current);

  /** Moves time forward by `ms` milliseconds. */
  advance(ms: number): void {
    this.current += ms;
  }

  /** Puts the clock at `at` (a date, an ISO string or epoch milliseconds). */
  set(at: string | number | Date): void {
    this.current = new Date(at).getTime();
  }
}
