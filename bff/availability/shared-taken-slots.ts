import { appointmentEnd } from '../../contract/rules/appointment-interval.js';
import { SLOT_STEP_MINUTES } from '../../contract/rules/slots.js';
import type { RedisLink } from '../../platform/redis-link.js';
import { intervalMember, takenOnDate, type MemoryTakenSlots, type TakenInterval, type TakenOnDate, type TakenSlots } from './taken-slots.js';

/**
 * Adds an interval (HH:MM-HH:MM) to a dentist's day and makes the day's key
 * live until its latest end (ARGV[2] ms from now), never shorter: PTTL is -1 for a key
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
 * time one BFF learnt taken is taken for all. One set per dentist and date
 * holds the held intervals as `HH:MM-HH:MM`, so a day's availability is one
 * small reply per dentist, and the set expires when its latest end has
 * passed: Redis holds at most the days really booked ahead. An interval
 * already over may stay in its set until then, which no answer asks about
 * (past starts are never listed or bookable). A member without an end (a bare
 * `HH:MM`, written by BFFs before intervals) holds one grid step, so a rolling
 * upgrade loses nothing. AVAILABILITY_MAX_SLOTS bounds the local copy only.
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

  async markTaken(doctorId: number, date: string, interval: TakenInterval): Promise<void> {
    await this.local.markTaken(doctorId, date, interval);
    const ttl = Math.ceil(this.local.msUntil(date, interval.end));
    if (ttl <= 0) return;
    await this.redis.sendOr(['EVAL', MARK_TAKEN, '1', this.dayKey(doctorId, date), intervalMember(interval), String(ttl)], undefined);
  }

  async takenOn(date: string, doctorIds: readonly number[]): Promise<TakenOnDate> {
    const known = new Map(doctorIds.map((doctorId) => [doctorId, this.local.intervalsOf(doctorId, date)]));
    if (doctorIds.length === 0) return takenOnDate(known);
    const keys = doctorIds.map((doctorId) => this.dayKey(doctorId, date));
    const days = await this.redis.sendOr<string[][], undefined>(['EVAL', MEMBERS_OF_EACH, String(keys.length), ...keys], undefined);
    if (!days) return takenOnDate(known);
    doctorIds.forEach((doctorId, index) => {
      const local = known.get(doctorId) ?? [];
      const seen = new Set(local.map(intervalMember));
      const shared = (days[index] ?? []).map(intervalOf).filter((held): held is TakenInterval => held !== undefined);
      known.set(doctorId, [...local, ...shared.filter((held) => !seen.has(intervalMember(held)))]);
    });
    return takenOnDate(known);
  }

  private dayKey(doctorId: number, date: string): string {
    return `${this.keyPrefix}${doctorId}:${date}`;
  }
}

/** A set member read back: `HH:MM-HH:MM`, or a bare start (older BFFs) as one grid step; anything else is ignored. */
function intervalOf(member: string): TakenInterval | undefined {
  const match = /^(\d\d:\d\d)(?:-(\d\d:\d\d))?$/.exec(member);
  if (!match) return undefined;
  const start = match[1]!;
  return { start, end: match[2] ?? appointmentEnd(start, SLOT_STEP_MINUTES) };
}
