import { LRUCache } from 'lru-cache';
import { systemClock, type Clock } from '../../platform/clock.js';
import { ResourceAnswer, type CachedAnswer } from './cached-answer.js';
import { compressedReserve } from './answer-compression.js';

/** What a miss runs: the ContentCache that asked loads its own site's resource. */
export interface FetchContext {
  load: () => Promise<CachedAnswer>;
}

export interface ContentStoreOptions {
  ttlMs: number;
  /** CACHE_MAX_BYTES: the bound of every site's content together. */
  maxBytes: number;
  clock?: Clock;
}

/**
 * The one LRU every site's ContentCache keeps its answers in: one byte bound
 * for the whole BFF, so a thousand sites take no more memory than one, and a
 * busy site's answers push out the least-read ones of any site. Keys start with
 * the site's id (siteKey), and every answer carries it too: ContentCache checks
 * it on each read, so a key built wrongly can never hand one clinic's content
 * to another.
 */
export class ContentStore {
  readonly lru: LRUCache<string, CachedAnswer, FetchContext>;
  /**
   * Keys with a fetch in flight (a miss, or a stale copy being refreshed),
   * each with how many: lru-cache lists none of them (keys() skips a
   * pending fetch, and the stale copy it stands in for), so dropSite finds
   * them here.
   */
  private readonly loading = new Map<string, number>();

  constructor({ ttlMs, maxBytes, clock = systemClock }: ContentStoreOptions) {
    // ttlResolution 0: lru-cache would otherwise reuse one reading of the clock for 1 ms, so an entry read
    // just before the clock moves (by hand in tests, or an NTP step) would still count as fresh after it.
    this.lru = new LRUCache<string, CachedAnswer, FetchContext>({
      maxSize: maxBytes,
      sizeCalculation: (answer, key) => answerSize(answer) + key.length,
      ttl: ttlMs,
      ttlResolution: 0,
      allowStale: true,
      noDeleteOnFetchRejection: true,
      // A fetch whose key is deleted meanwhile (dropSite) still answers the requests waiting on it,
      // and is not kept: lru-cache stores a fetch's answer only while its key still holds that fetch.
      ignoreFetchAbort: true,
      perf: { now: () => clock.now().getTime() },
      fetchMethod: (key, _stale, { context }) => this.loadOf(key, context),
    });
  }

  /**
   * Forgets every answer of one site (it changed, or is gone): its next
   * request loads afresh. A fetch in flight is forgotten too: it answers
   * whoever waits on it, and what it brings is not kept.
   */
  dropSite(siteId: string): number {
    const prefix = sitePrefix(siteId);
    const keys = [...new Set([...this.lru.keys(), ...this.loading.keys()])].filter((key) => key.startsWith(prefix));
    for (const key of keys) this.lru.delete(key);
    return keys.length;
  }

  private async loadOf(key: string, context: FetchContext): Promise<CachedAnswer> {
    this.loading.set(key, (this.loading.get(key) ?? 0) + 1);
    try {
      return await context.load();
    } finally {
      const left = (this.loading.get(key) ?? 1) - 1;
      if (left > 0) this.loading.set(key, left);
      else this.loading.delete(key);
    }
  }

  /** How many answers one site holds (tests, and the change log line). */
  countOf(siteId: string): number {
    const prefix = sitePrefix(siteId);
    let count = 0;
    for (const key of this.lru.keys()) if (key.startsWith(prefix)) count++;
    return count;
  }
}

/** Where every key of a site starts: its id, then a character no site id, revision or path holds. */
const sitePrefix = (siteId: string): string => `${siteId}\n`;

/**
 * A site's key for a path, under the revision of the site its runtime was
 * built from (none for the default site). An answer an earlier runtime asked
 * for is under that runtime's revision, so the runtime built after a change
 * never serves it (and one still in flight when the site was dropped is not
 * kept at all: dropSite).
 */
export const siteKey = (siteId: string, path: string, revision = ''): string => `${sitePrefix(siteId)}${revision}\n${path}`;

/**
 * Bytes an answer holds in the cache: its plain body, its value counted as
 * long as its JSON (the plain body; the objects take more, so this is a
 * floor), a reserve for the compressed copies made when first asked for
 * (compressedReserve), a list's items (parts of its value, their answers
 * made when first asked for: reserved as long as the list's body, and a
 * rough overhead each), and a rough overhead.
 */
function answerSize(answer: CachedAnswer): number {
  // A resource's own 200 may parse its value later (ResourceAnswer): reserved from the start.
  const parsable = answer instanceof ResourceAnswer;
  const plain = answer.body.length * (parsable ? 2 : 1) + compressedReserve(answer.body) + 100;
  const items = parsable && answer.itemCount > 0 ? answer.body.length + compressedReserve(answer.body) + 100 * answer.itemCount : 0;
  return plain + items;
}
