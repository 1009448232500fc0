import { ApiError } from '../../contract/errors.js';
import { systemClock, type Clock } from '../../platform/clock.js';

/** A content miss refused because the read budget is spent; carries the seconds until one is free again. */
export class ReadBudgetSpent extends ApiError {
  constructor(readonly retryAfterSeconds: number) {
    super('upstream_busy', 'The clinic system is busy; please try again shortly');
  }
}

export interface ReadBudgetOptions {
  /** Upstream calls allowed in any window (UPSTREAM_READ_BUDGET per minute). */
  limit: number;
  windowMs?: number;
  clock?: Clock;
}

/**
 * How many upstream calls content misses may make, across all clients: at
 * most `limit` in any `windowMs` (a sliding log, so no window of the
 * upstream's own rate limit, however aligned, sees more). The clinic's key
 * has one upstream rate for everything; bookings and status lookups never
 * take from this budget, so what it leaves of the key's rate stays theirs
 * whatever anonymous visitors ask for.
 */
export class ReadBudget {
  /** When each of the last `limit` calls was taken, oldest first (a ring). */
  private readonly taken: number[];
  private next = 0;
  private readonly windowMs: number;
  private readonly now: () => number;

  constructor({ limit, windowMs = 60_000, clock = systemClock }: ReadBudgetOptions) {
    this.taken = new Array<number>(limit).fill(-Infinity);
    this.windowMs = windowMs;
    this.now = () => clock.now().getTime();
  }

  /** Takes one call from the budget; throws ReadBudgetSpent when none is left. */
  take(): void {
    const now = this.now();
    const oldest = this.taken[this.next]!;
    const freeAt = oldest + this.windowMs;
    if (freeAt > now) throw new ReadBudgetSpent(Math.max(1, Math.ceil((freeAt - now) / 1000)));
    this.taken[this.next] = now;
    this.next = (this.next + 1) % this.taken.length;
  }
}
