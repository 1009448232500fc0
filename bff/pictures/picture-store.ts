import { LRUCache } from 'lru-cache';
import type { Clock } from '../../platform/clock.js';
import type { OutboundPolicy } from '../outbound/outbound-policy.js';
import { downloadPicture, PictureRefused, type Picture } from './picture-download.js';

/** Whose picture it is: the site whose content names it, and that site's upstream origin (which the outbound rule allows). */
export interface PictureSite {
  siteId: string;
  upstreamOrigin: string;
}

export interface PictureStoreOptions {
  /** The largest picture passed on, in bytes. */
  maxPictureBytes: number;
  /** All cached pictures together, in bytes. */
  maxBytes: number;
  /** One site's cached pictures together, in bytes: its share, whatever the others hold. */
  maxSiteBytes: number;
  ttlMs: number;
  timeoutMs: number;
  clock: Clock;
  /** Where a picture may be fetched from: the rule every outbound call of the BFF follows. */
  outbound: OutboundPolicy;
}

/**
 * The clinics' pictures, fetched where their content says they are when the
 * outbound rule allows it (picture-download.ts), and kept for `ttlMs`, so a
 * popular page costs the picture's host one request per picture per TTL
 * (concurrent misses share one). Past its TTL a picture is served at once
 * while it is fetched again (allowStale), and a failed refresh keeps it
 * (noDeleteOnFetchRejection), so pictures outlast an outage of their host as
 * the content does; a picture the content no longer names is refused by the
 * route whatever is cached.
 *
 * Each site has an LRU of its own, bounded by `maxSiteBytes`, so one site
 * filling its share evicts only its own pictures. All of them together stay
 * within `maxBytes`: past it, the site holding the most gives up its least
 * recently used picture, so a site can push out another's only while that
 * other holds more than it does. Kept per site, too, because the outbound
 * rule is: a picture fetched under one site's own upstream origin is never
 * served to another.
 */
export class PictureStore {
  private readonly sites = new Map<string, LRUCache<string, Picture, string>>();

  constructor(private readonly options: PictureStoreOptions) {}

  /** The picture at `url` (a URL the site's content names: the caller checks). */
  async get(site: PictureSite, url: string): Promise<Picture> {
    try {
      const picture = await this.siteCache(site.siteId).fetch(url, { context: site.upstreamOrigin });
      if (!picture) throw new PictureRefused('unreachable');
      return picture;
    } finally {
      this.keepWithinTotal();
    }
  }

  /**
   * Forgets every picture of a site that changed or went (SiteRegistry's
   * drop): a deleted site's pictures stop taking a share of the total, and a
   * site whose upstream moved fetches anew under the rule for its new origin.
   * A fetch still in flight settles into the forgotten cache, never the next one.
   */
  dropSite(siteId: string): void {
    this.sites.get(siteId)?.clear();
    this.sites.delete(siteId);
  }

  private siteCache(siteId: string): LRUCache<string, Picture, string> {
    let cache = this.sites.get(siteId);
    if (!cache) {
      const { options } = this;
      cache = new LRUCache<string, Picture, string>({
        maxSize: options.maxSiteBytes,
        sizeCalculation: (picture) => Math.max(1, picture.body.length),
        maxEntrySize: options.maxPictureBytes,
        ttl: options.ttlMs,
        // lru-cache would otherwise reuse one reading of the clock for 1 ms (see ContentCache).
        ttlResolution: 0,
        allowStale: true,
        noDeleteOnFetchRejection: true,
        perf: { now: () => options.clock.now().getTime() },
        fetchMethod: (url, _stale, { signal, context }) =>
          downloadPicture(url, {
            upstreamOrigin: context,
            outbound: options.outbound,
            maxPictureBytes: options.maxPictureBytes,
            timeoutMs: options.timeoutMs,
            evicted: signal,
          }),
      });
      this.sites.set(siteId, cache);
    }
    return cache;
  }

  /** Past `maxBytes` in all, the site holding the most drops its least recently used picture, until all fit. */
  private keepWithinTotal(): void {
    let total = 0;
    for (const cache of this.sites.values()) total += cache.calculatedSize;
    while (total > this.options.maxBytes) {
      let largest: LRUCache<string, Picture, string> | undefined;
      for (const cache of this.sites.values()) if (!largest || cache.calculatedSize > largest.calculatedSize) largest = cache;
      // Only pictures being refreshed left in it: they are dropped by a later call, once settled.
      const oldest = largest?.rkeys().next();
      if (!largest || !oldest || oldest.done) return;
      const before = largest.calculatedSize;
      largest.delete(oldest.value);
      total -= before - largest.calculatedSize;
    }
  }
}
