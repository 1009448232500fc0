import { systemClock, type Clock } from '../../platform/clock.js';
import type { ContentCache } from '../content/content-cache.js';
import type { ContentResource } from '../content/resources.js';
import { UpstreamUnavailable } from '../upstream/errors.js';
import type { UpstreamClient } from '../upstream/upstream-client.js';

export interface BookingFactsOptions {
  /** How long a copy read for a booking is reused: the content cache's TTL. */
  ttlMs: number;
  clock?: Clock;
}

/**
 * The clinic content a booking is checked against before it goes upstream:
 * the opening hours, the active treatments and the dentists ("any dentist"
 * too). Never older than the content cache's TTL, and never through the read
 * budget (docs/security.md: bookings never count against it): the
 * cache's copy while it is fresh, else this BFF's own copy read for an
 * earlier booking within the TTL, else one read from upstream now, which
 * concurrent bookings share. So bookings read each resource at most once per
 * TTL, however many they are. The cache's entries are left as anonymous
 * reads made them, budget and all.
 */
export class BookingFacts {
  private readonly read = new Map<string, { value: unknown; readAt: number }>();
  private readonly reading = new Map<string, Promise<unknown>>();
  private readonly now: () => number;

  constructor(
    private readonly cache: ContentCache,
    private readonly upstream: UpstreamClient,
    private readonly options: BookingFactsOptions,
  ) {
    const clock = options.clock ?? systemClock;
    this.now = () => clock.now().getTime();
  }

  /** The resource's value as a booking reads it; throws UpstreamUnavailable or UpstreamBusy when it cannot be read. */
  async current<T>(resource: ContentResource<T>): Promise<T> {
    const cached = this.cache.fresh(resource);
    if (cached) {
      // A fresh answer that is not the resource (a 404): nothing to check against until it changes.
      if (cached.value === undefined) throw unreadable(resource);
      return cached.value;
    }
    const known = this.read.get(resource.path);
    if (known && this.now() - known.readAt <= this.options.ttlMs) return known.value as T;
    let reading = this.reading.get(resource.path);
    if (!reading) {
      reading = this.readNow(resource).finally(() => this.reading.delete(resource.path));
      this.reading.set(resource.path, reading);
    }
    return (await reading) as T;
  }

  private async readNow<T>(resource: ContentResource<T>): Promise<T> {
    const answer = await this.upstream.call({ method: 'GET', path: resource.path });
    const prepared = answer.status === 200 ? resource.prepare(answer.body) : undefined;
    if (!prepared?.ok) throw unreadable(resource);
    this.read.set(resource.path, { value: prepared.value, readAt: this.now() });
    return prepared.value;
  }
}

const unreadable = (resource: ContentResource) => new UpstreamUnavailable('server_error', `upstream ${resource.name} cannot be read for a booking`);
