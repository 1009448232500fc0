import { LRUCache } from 'lru-cache';
import { systemClock, type Clock } from '../../platform/clock.js';
import { instantOf } from './zoned-time.js';
import { entriesAtMost } from '../../platform/entries-at-most.js';

/**
 * A time a dentist is known to be held on one date: from `start` up to `end`
 * (HH:MM, the clinic's clock), the end excluded, as the reference server
 * holds an appointment (contract/rules/appointment-interval.ts).
 */
export interface TakenInterval {
  start: string;
  end: string;
}

/** What is known about one date, for the dentists asked about. */
export interface TakenOnDate {
  /** True when the dentist is known to be held at some moment from `start` up to `end` (excluded). */
  overlaps(doctorId: number, start: string, end: string): boolean;
  /** How many held times the BFF knows of for the dentist that day: its measure of the dentist's load. */
  count(doctorId: number): number;
}

/**
 * What the BFF has learnt about booked time, per dentist and date: the whole
 * interval of a booking through the BFF that succeeded, or the asked start
 * of one upstream answered 409, until the interval has ended. Nothing ever
 * makes time free again (a cancellation is not learnt): knowledge only grows
 * until it expires. In memory per process (MemoryTakenSlots, the default), or
 * shared by every BFF of the clinic through Redis (SharedTakenSlots, REDIS_URL).
 */
export interface TakenSlots {
  /** Remembers the dentist as held from `start` to `end` on `date` until `end` has passed; an interval already over is not kept. */
  markTaken(doctorId: number, date: string, interval: TakenInterval): Promise<void>;
  /** What is known about these dentists on one date, in one look-up (one Redis round trip when shared). */
  takenOn(date: string, doctorIds: readonly number[]): Promise<TakenOnDate>;
}

export interface TakenSlotsOptions {
  /** The most intervals remembered; past it the least recently learnt or asked about is forgotten. */
  maxSlots: number;
  /** The clinic's IANA zone, in which a slot's date and time are read. */
  timeZone: string;
  clock?: Clock;
}

/** An interval as one string, `HH:MM-HH:MM`: a Redis set member, and part of the memory's key. */
export const intervalMember = ({ start, end }: TakenInterval): string => `${start}-${end}`;

/**
 * TakenOnDate from each dentist's intervals. Intervals overlap when each starts
 * before the other ends (HH:MM strings compare in time order); back-to-back is free.
 */
export function takenOnDate(byDentist: ReadonlyMap<number, readonly TakenInterval[]>): TakenOnDate {
  return {
    overlaps: (doctorId, start, end) => byDentist.get(doctorId)?.some((held) => held.start < end && start < held.end) === true,
    count: (doctorId) => byDentist.get(doctorId)?.length ?? 0,
  };
}

/**
 * TakenSlots in this process's memory. Each interval lives until it has ended
 * (its TTL), and at most `maxSlots` are kept (an LRU): memory stays bounded
 * whatever the traffic, at the price of forgetting the oldest knowledge
 * first, which only makes an answer say "open" where the booking then meets
 * upstream's 409. An index per dentist and date finds a day's intervals
 * without scanning them all; the LRU's dispose keeps it in step.
 */
export class MemoryTakenSlots implements TakenSlots {
  private readonly slots: LRUCache<string, TakenInterval>;
  /** The memory keys of each dentist's day (`doctorId date`). */
  private readonly days = new Map<string, Set<string>>();
  private readonly now: () => number;

  constructor(private readonly options: TakenSlotsOptions) {
    const clock = options.clock ?? systemClock;
    this.now = () => clock.now().getTime();
    // ttlResolution 0: lru-cache would otherwise reuse one reading of the clock for 1 ms, across a clock moved by hand.
    this.slots = new LRUCache<string, TakenInterval>({
      ...entriesAtMost(options.maxSlots),
      ttlResolution: 0,
      perf: { now: this.now },
      dispose: (_interval, key) => this.unindex(key),
    });
  }

  /** How long from now until `time` on `date`; zero or less once it has come. */
  msUntil(date: string, time: string): number {
    return instantOf(date, time, this.options.timeZone) - this.now();
  }

  markTaken(doctorId: number, date: string, interval: TakenInterval): Promise<void> {
    const ttl = this.msUntil(date, interval.end);
    if (ttl <= 0) return Promise.resolve();
    const day = dayOf(doctorId, date);
    const key = `${day} ${intervalMember(interval)}`;
    this.slots.set(key, { ...interval }, { ttl });
    let keys = this.days.get(day);
    if (!keys) this.days.set(day, (keys = new Set()));
    keys.add(key);
    return Promise.resolve();
  }

  takenOn(date: string, doctorIds: readonly number[]): Promise<TakenOnDate> {
    return Promise.resolve(takenOnDate(new Map(doctorIds.map((doctorId) => [doctorId, this.intervalsOf(doctorId, date)]))));
  }

  /** The dentist's intervals still remembered on the date (each read counts as a use, for the LRU; an ended one is dropped). */
  intervalsOf(doctorId: number, date: string): TakenInterval[] {
    const keys = this.days.get(dayOf(doctorId, date));
    if (!keys) return [];
    const intervals: TakenInterval[] = [];
    for (const key of [...keys]) {
      const interval = this.slots.get(key);
      if (interval) intervals.push(interval);
    }
    return intervals;
  }

  /** How many intervals are remembered (entries that have ended count until they are next touched or evicted). */
  get size(): number {
    return this.slots.size;
  }

  private unindex(key: string): void {
    const day = key.slice(0, key.lastIndexOf(' '));
    const keys = this.days.get(day);
    if (!keys) return;
    keys.delete(key);
    if (keys.size === 0) this.days.delete(day);
  }
}

const dayOf = (doctorId: number, date: string): string => `${doctorId} ${date}`;
