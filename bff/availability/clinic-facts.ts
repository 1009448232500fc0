import type { OpeningHours } from '../../contract/rules/opening-hours.js';
import { systemClock, type Clock } from '../../platform/clock.js';
import type { ContentCache } from '../content/content-cache.js';
import { DENTISTS, TREATMENTS, WEBSITE } from '../content/resources.js';
import { UpstreamUnavailable } from '../upstream/errors.js';
import type { UpstreamClient } from '../upstream/upstream-client.js';

export interface ClinicFactsOptions {
  /** How long a dentist list read for a booking is reused: the content cache's TTL. */
  ttlMs: number;
  clock?: Clock;
}

/**
 * The few facts availability and "any dentist" need. Availability reads them
 * from the content cache (already checked against the contract and
 * sanitised), like any other anonymous read, under the read budget. A booking
 * never counts against that budget (README, Security model), so the dentist
 * list it needs is the one last read here, when younger than the cache's TTL,
 * or else read straight from upstream: bookings are few (BOOKING_RATE_LIMIT per IP).
 */
export class ClinicFacts {
  private dentistsForBooking?: { ids: number[]; readAt: number };
  private readonly now: () => number;

  constructor(
    private readonly cache: ContentCache,
    private readonly upstream: UpstreamClient,
    private readonly options: ClinicFactsOptions,
  ) {
    const clock = options.clock ?? systemClock;
    this.now = () => clock.now().getTime();
  }

  async openingHours(): Promise<OpeningHours> {
    return (await this.cache.get(WEBSITE)).value?.site.opening_hours ?? {};
  }

  /** The length of an active treatment, in minutes; undefined when there is no such treatment. */
  async treatmentDuration(treatmentId: number): Promise<number | undefined> {
    return (await this.cache.get(TREATMENTS)).value?.data.find((t) => t.treatment_id === treatmentId)?.duration_minutes;
  }

  /** The clinic's dentists' ids, in the order GET /dentists lists them, from the content cache. */
  async dentistIds(): Promise<number[]> {
    const answer = await this.cache.get(DENTISTS);
    const ids = answer.value?.data.map((d) => d.doctor_id) ?? [];
    this.dentistsForBooking = { ids, readAt: answer.fetchedAt };
    return ids;
  }

  /** The same, for a booking: never through the read budget. Throws UpstreamUnavailable when it cannot be read. */
  async dentistIdsForBooking(): Promise<number[]> {
    const known = this.dentistsForBooking;
    if (known && this.now() - known.readAt <= this.options.ttlMs) return known.ids;
    const answer = await this.upstream.call({ method: 'GET', path: '/dentists' });
    const prepared = answer.status === 200 ? DENTISTS.prepare(answer.body) : { ok: false as const };
    if (!prepared.ok) throw new UpstreamUnavailable('server_error', 'upstream dentists did not match the contract');
    const ids = prepared.value.data.map((d) => d.doctor_id);
    this.dentistsForBooking = { ids, readAt: this.now() };
    return ids;
  }
}
