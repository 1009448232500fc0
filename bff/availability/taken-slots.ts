import { LRUCache } from 'lru-cache';
import { systemClock, type Clock } from '../../platform/clock.js';
import { instantOf } from './zoned-time.js';

/** What is known about one date: whether the dentist's start is taken. */
export type TakenOnDate = (doctorId: number, time: string) => boolean;

/**
 * What the BFF has learnt about booked slots, per dentist, date and start
 * time: a slot is taken once a booking of it through the BFF succeeded, or
 * upstream answered 409 for it, until the slot's time has passed. Nothing ever
 * makes a slot open again (a cancellation is not learnt): knowledge only grows
 * until it expires. In memory per process (MemoryTakenSlots, the default), or
 * shared by every BFF of the clinic through Redis (SharedTakenSlots, REDIS_URL).
 */
export interface TakenSlots {
  /** Remembers the dentist's slot as taken until its time has passed; a slot already past is not kept. */
  markTaken(doctorId: number, date: string, time: string): Promise<void>;
  /** True while the dentist's slot is known to be taken. */
  isTaken(doctorId: number, date: string, time: string): Promise<boolean>;
  /** What is known about these dentists' starts on one date, in one look-up (one Redis round trip when shared). */
  takenOn(date: string, doctorIds: readonly number[]): Promise<TakenOnDate>;
}

export interface TakenSlotsOptions {
  /** The most slots remembered; past it the least recently learnt or asked about is forgotten. */
  maxSlots: number;
  /** The clinic's IANA zone, in which a slot's date and time are read. */
  timeZone: string;
  clock?: Clock;
}

/**
 * TakenSlots in this process's memory. Each entry lives until the slot's time
 * has passed (its TTL), and at most `maxSlots` are kept (an LRU): memory stays
 * bounded whatever the traffic, at the price of forgetting the oldest
 * knowledge first, which only makes an answer say "open" where the booking
 * then meets upstream's 409.
 */
export class MemoryTakenSlots implements TakenSlots {
  private readonly slots: LRUCache<string, true>;
  private readonly now: () => number;

  constructor(private readonly options: TakenSlotsOptions) {
    const clock = options.clock ?? systemClock;
    this.now = () => clock.now().getTime();
    // ttlResolution 0: lru-cache would otherwise reuse one reading of the clock for 1 ms, across a clock moved by hand.
    this.slots = new LRUCache<string, true>({ max: options.maxSlots, ttlResolution: 0, perf: { now: this.now } });
  }

  /** How long from now until the slot's start; zero or less once it has begun. */
  msUntil(date: string, time: string): number {
    return instantOf(date, time, this.options.timeZone) - this.now();
  }

  markTaken(doctorId: number, date: string, time: string): Promise<void> {
    const ttl = this.msUntil(date, time);
    if (ttl > 0) this.slots.set(slotKey(doctorId, date, time), true, { ttl });
    return Promise.resolve();
  }

  isTaken(doctorId: number, date: string, time: string): Promise<boolean> {
    return Promise.resolve(this.has(doctorId, date, time));
  }

  /** Looked up slot by slot as the answer asks (no copy): only what is asked about counts as used. */
  takenOn(date: string): Promise<TakenOnDate> {
    return Promise.resolve((doctorId, time) => this.has(doctorId, date, time));
  }

  /** The synchronous look-up behind the above (it counts as a use, for the LRU). */
  has(doctorId: number, date: string, time: string): boolean {
    return this.slots.get(slotKey(doctorId, date, time)) === true;
  }

  /** How many slots are remembered (entries whose time has passed count until they are next touched or evicted). */
  get size(): number {
    return this.slots.size;
  }
}

const slotKey = (doctorId: number, date: string, time: string): string => `${doctorId} ${date} ${time}`;
