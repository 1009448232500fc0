import type { RedisLink } from '../../platform/redis-link.js';
import type { MemoryTakenSlots, TakenOnDate, TakenSlots } from './taken-slots.js';

/**
 * Adds a start time to a dentist's day and makes the day's key live until its
 * latest taken start (ARGV[2] ms from now), never shorter: PTTL is -1 for a key
 * without expiry, -2 for none at all. One script, so the set never exists
 * without an expiry.
 */
const MARK_TAKEN = `redis.call('SADD', KEYS[1], ARGV[1])
if redis.call('PTTL', KEYS[1]) < tonumber(ARGV[2]) then redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return 1`;

/** Each key's members, in the order of KEYS: a day's availability asks about every dentist in one command. */
const MEMBERS_OF_EACH = `local days = {}
for i, key in ipairs(KEYS) do days[i] = redis.call('SMEMBERS', key) end
return days`;

/**
 * TakenSlots shared by every BFF of the clinic through Redis (REDIS_URL): a
 * slot one BFF learnt taken is taken for all. One set per dentist and date
 * holds the taken start times, so a day's availability is one small reply per
 * dentist, and the set expires when its latest start has passed: Redis holds
 * at most the days really booked ahead. A start already past may stay in its
 * set until then, which no answer asks about (past starts are never listed or
 * bookable). AVAILABILITY_MAX_SLOTS bounds the local copy only.
 *
 * This BFF also keeps what it learnt in its own memory, and an answer is the
 * union of both: while Redis is down (its one warning logged by the link) the
 * BFF still knows what it learnt itself, before and during the outage, and
 * when Redis is back it knows what every BFF wrote there too. What was learnt
 * only locally during an outage is not copied to Redis afterwards.
 */
export class SharedTakenSlots implements TakenSlots {
  constructor(
    private readonly redis: RedisLink,
    /** This clinic's namespace for slots, e.g. `clinic-booking:bff:<clinic>:taken:`. */
    private readonly keyPrefix: string,
    private readonly local: MemoryTakenSlots,
  ) {}

  async markTaken(doctorId: number, date: string, time: string): Promise<void> {
    await this.local.markTaken(doctorId, date, time);
    const ttl = Math.ceil(this.local.msUntil(date, time));
    if (ttl <= 0) return;
    await this.redis.sendOr(['EVAL', MARK_TAKEN, '1', this.dayKey(doctorId, date), time, String(ttl)], undefined);
  }

  async isTaken(doctorId: number, date: string, time: string): Promise<boolean> {
    if (this.local.has(doctorId, date, time)) return true;
    return (await this.redis.sendOr<number, 0>(['SISMEMBER', this.dayKey(doctorId, date), time], 0)) === 1;
  }

  async takenOn(date: string, doctorIds: readonly number[]): Promise<TakenOnDate> {
    const known = await this.local.takenOn(date);
    if (doctorIds.length === 0) return known;
    const keys = doctorIds.map((doctorId) => this.dayKey(doctorId, date));
    const days = await this.redis.sendOr<string[][], undefined>(['EVAL', MEMBERS_OF_EACH, String(keys.length), ...keys], undefined);
    if (!days) return known;
    const shared = new Map(doctorIds.map((doctorId, index) => [doctorId, new Set(days[index])]));
    return (doctorId, time) => known(doctorId, time) || shared.get(doctorId)?.has(time) === true;
  }

  private dayKey(doctorId: number, date: string): string {
    return `${this.keyPrefix}${doctorId}:${date}`;
  }
}
