import { LRUCache } from 'lru-cache';
import { systemClock, type Clock } from '../../platform/clock.js';
import { instantOf } from './zoned-time.js';

/** How many taken slots the BFF remembers at most (AVAILABILITY_MAX_SLOTS). */
export const DEFAULT_AVAILABILITY_MAX_SLOTS = 50_000;

export interface TakenSlotsOptions {
  /** The most slots remembered; past it the least recently learnt or asked about is forgotten. */
  maxSlots: number;
  /** The clinic's IANA zone, in which a slot's date and time are read. */
  timeZone: string;
  clock?: Clock;
}

/**
 * What the BFF has learnt about booked slots, per dentist, date and start
 * time: a slot is taken once a booking of it through this BFF succeeded, or
 * upstream answered 409 for it. Each entry lives until the slot's time has
 * passed (its TTL), and at most `maxSlots` are kept (an LRU): memory stays
 * bounded whatever the traffic, at the price of forgetting the oldest
 * knowledge first, which only makes an answer say "open" where the booking
 * then meets upstream's 409. In memory, per BFF process.
 */
export class TakenSlots {
  private readonly slots: LRUCache<string, true>;
  private readonly now: () => number;

  constructor(private readonly options: TakenSlotsOptions) {
    const clock = options.clock ?? systemClock;
    this.now = () => clock.now().getTime();
    // ttlResolution 0: lru-cache would otherwise reuse one reading of the clock for 1 ms, across a clock moved by hand.
    this.slots = new LRUCache<string, true>({ max: options.maxSlots, ttlResolution: 0, perf: { now: this.now } });
  }

  /** Remembers the dentist's slot as taken until its time has passed; a slot already past is not kept. */
  markTaken(doctorId: number, date: string, time: string): void {
    const ttl = instantOf(date, time, this.options.timeZone) - this.now();
    if (ttl > 0) this.slots.set(key(doctorId, date, time), true, { ttl });
  }

  /** True while the dentist's slot is known to be taken. */
  isTaken(doctorId: number, date: string, time: string): boolean {
    return this.slots.get(key(doctorId, date, time)) === true;
  }

  /** How many slots are remembered (entries whose time has passed count until they are next touched or evicted). */
  get size(): number {
    return this.slots.size;
  }
}

const key = (doctorId: number, date: string, time: string) => `${doctorId} ${date} ${time}`;
