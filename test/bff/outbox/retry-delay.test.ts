import { describe, expect, it } from 'vitest';
import { FIRST_RETRY_DELAY_MS, retryDelayMs } from '../../../bff/outbox/retry-delay.js';

const CAP = 5 * 60_000;
/** The lowest and the highest draw of Math.random. */
const lowest = () => 0;
const highest = () => 1 - Number.EPSILON;

describe('retryDelayMs', () => {
  it('starts at 5 s and doubles with each failed try, within half of each step and all of it', () => {
    const steps = [1, 2, 3, 4, 5].map((attempts) => [retryDelayMs(attempts, CAP, lowest), retryDelayMs(attempts, CAP, highest)]);

    expect(steps).toEqual([
      [2_500, 5_000],
      [5_000, 10_000],
      [10_000, 20_000],
      [20_000, 40_000],
      [40_000, 80_000],
    ]);
    expect(FIRST_RETRY_DELAY_MS).toBe(5_000);
  });

  it('never waits longer than the cap, however many tries failed', () => {
    for (const attempts of [7, 8, 20, 1_000, 10_000]) {
      expect(retryDelayMs(attempts, CAP, highest)).toBe(CAP);
      expect(retryDelayMs(attempts, CAP, lowest)).toBe(CAP / 2);
    }
  });

  it('draws each delay at random, so the retries of one outage spread out', () => {
    const draws = new Set(Array.from({ length: 50 }, () => retryDelayMs(6, CAP)));

    expect(draws.size).toBeGreaterThan(40);
    for (const draw of draws) expect(draw).toBeGreaterThanOrEqual(80_000);
    for (const draw of draws) expect(draw).toBeLessThanOrEqual(160_000);
  });

  it('takes a cap below the first step as it is', () => {
    expect(retryDelayMs(1, 1_000, highest)).toBe(1_000);
    expect(retryDelayMs(1, 1_000, lowest)).toBe(500);
  });
});
