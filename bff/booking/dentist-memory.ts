import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { systemClock, type Clock } from '../../platform/clock.js';
import type { RedisLink } from '../../platform/redis-link.js';
import { entriesAtMost } from '../../platform/entries-at-most.js';

/** How long (upstream's replay window) and how many patient keys of "any dentist" bookings are remembered with their dentist. */
export const KEY_MEMORY_TTL_MS = 24 * 3600_000;
export const KEYS_REMEMBERED = 10_000;

/**
 * The dentist each patient key (Idempotency-Key) of an "any dentist" booking
 * booked, or may have booked (an unknown outcome, 504). A re-send with that key
 * tries that dentist first, even though it is known to be taken since (taken by
 * this very patient), so its derived key replays the booking rather than making
 * another with the next dentist. Kept for upstream's replay window. In memory
 * per process (MemoryDentistMemory, the default), or shared by every BFF of the
 * clinic through Redis (SharedDentistMemory, REDIS_URL), so that a re-send
 * reaching another BFF than the first try still finds its dentist.
 */
export interface DentistMemory {
  /** The dentist remembered for this patient key, if any. */
  dentistOf(patientKey: string): Promise<number | undefined>;
  /** Remembers the dentist tried with this patient key, for KEY_MEMORY_TTL_MS. */
  remember(patientKey: string, doctorId: number): Promise<void>;
}

/** What is remembered per patient key in a process's memory: at most KEYS_REMEMBERED keys, each for KEY_MEMORY_TTL_MS. */
export function patientKeyCache<V extends NonNullable<unknown>>(clock: Clock): LRUCache<string, V> {
  // ttlResolution 0: lru-cache would otherwise reuse one reading of the clock for 1 ms, across a clock moved by hand.
  return new LRUCache<string, V>({
    ...entriesAtMost(KEYS_REMEMBERED),
    ttl: KEY_MEMORY_TTL_MS,
    ttlResolution: 0,
    perf: { now: () => clock.now().getTime() },
  });
}

/** DentistMemory in this process's memory: at most KEYS_REMEMBERED keys, the least recently used forgotten first. */
export class MemoryDentistMemory implements DentistMemory {
  private readonly dentists: LRUCache<string, number>;

  constructor(clock: Clock = systemClock) {
    this.dentists = patientKeyCache<number>(clock);
  }

  dentistOf(patientKey: string): Promise<number | undefined> {
    return Promise.resolve(this.dentists.get(patientKey));
  }

  remember(patientKey: string, doctorId: number): Promise<void> {
    this.dentists.set(patientKey, doctorId);
    return Promise.resolve();
  }
}

/**
 * DentistMemory shared by every BFF of the clinic through Redis (REDIS_URL):
 * one key per patient key, holding only the dentist's id and expiring after
 * KEY_MEMORY_TTL_MS. The patient key enters Redis only as its SHA-256, so
 * nothing there names it, and nothing about the patient is stored.
 *
 * Like SharedTakenSlots, this BFF also keeps what it learnt in its own memory:
 * while Redis is down (its one warning logged by the link), or holds nothing for
 * the key, a re-send reaching this BFF still finds the dentist this BFF tried.
 * Redis is read first when it answers, unlike taken slots (a union, which only
 * grows): the latest try wins, and a re-send that moved on from a dentist (409)
 * to the next one on another BFF must not be sent back to the first by this
 * BFF's older local entry. What was remembered only locally during an outage
 * is not copied to Redis afterwards.
 */
export class SharedDentistMemory implements DentistMemory {
  constructor(
    private readonly redis: RedisLink,
    /** This clinic's namespace for patient keys, e.g. `clinic-booking:bff:<clinic>:dentist:`. */
    private readonly keyPrefix: string,
    private readonly local: MemoryDentistMemory,
  ) {}

  async dentistOf(patientKey: string): Promise<number | undefined> {
    const stored = await this.redis.sendOr<string | null, null>(['GET', this.keyOf(patientKey)], null);
    const doctorId = Number(stored);
    return stored !== null && Number.isSafeInteger(doctorId) && doctorId > 0 ? doctorId : this.local.dentistOf(patientKey);
  }

  async remember(patientKey: string, doctorId: number): Promise<void> {
    await this.local.remember(patientKey, doctorId);
    await this.redis.sendOr(['SET', this.keyOf(patientKey), String(doctorId), 'PX', String(KEY_MEMORY_TTL_MS)], undefined);
  }

  private keyOf(patientKey: string): string {
    return `${this.keyPrefix}${createHash('sha256').update(patientKey).digest('base64url')}`;
  }
}
