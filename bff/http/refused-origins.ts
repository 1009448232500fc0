import type { Logger } from 'pino';
import { LRUCache } from 'lru-cache';
import type { Clock } from '../../platform/clock.js';
import { entriesAtMost } from '../../platform/entries-at-most.js';

const ONE_HOUR_MS = 60 * 60 * 1000;
/** Origins remembered at once: a flood of invented origins costs at most this many entries (each cut to MAX_ORIGIN_CHARS). */
const MAX_ORIGINS = 1000;
const MAX_ORIGIN_CHARS = 200;

/**
 * A page on an origin that ALLOWED_ORIGINS does not list gets no CORS headers,
 * so its browser hides every answer and the widget fails there with nothing
 * to show the clinic why. This says so in the BFF's log: one warning per
 * origin per hour (remembered in a bounded LRU with a one-hour TTL on the
 * injected clock), not one per request, so a busy misconfigured page cannot
 * flood the log. An origin is not patient data; it is cut to 200 characters.
 */
export class RefusedOrigins {
  private readonly warned: LRUCache<string, true>;

  constructor(
    private readonly logger: Logger,
    clock: Clock,
  ) {
    this.warned = new LRUCache({ ...entriesAtMost(MAX_ORIGINS), ttl: ONE_HOUR_MS, perf: { now: () => clock.now().getTime() } });
  }

  /** Notes a request from `origin` that got no CORS headers. */
  refused(origin: string): void {
    const shown = origin.slice(0, MAX_ORIGIN_CHARS);
    if (this.warned.has(shown)) return;
    this.warned.set(shown, true);
    this.logger.warn(
      { origin: shown },
      `refused cross-origin request from ${shown}: ALLOWED_ORIGINS does not list it (the widget cannot work on that page; add the origin to ALLOWED_ORIGINS if it is the clinic's site). Said once an hour per origin.`,
    );
  }
}
