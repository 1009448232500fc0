import { createHash } from 'node:crypto';
import type { LRUCache } from 'lru-cache';
import { ErrorBody } from '../../contract/index.js';
import type { UpstreamClient } from '../upstream/upstream-client.js';
import { systemClock, type Clock } from '../../platform/clock.js';
import { UpstreamUnavailable } from '../upstream/errors.js';
import type { ReadBudget } from '../upstream/read-budget.js';
import type { CombinedResource, ContentResource } from './resources.js';
import type { BffObserver, CacheLookupResult } from '../metrics/bff-metrics.js';
import { ContentStore, siteKey, type FetchContext } from './content-store.js';
import { ResourceAnswer, type CachedAnswer, type Coding } from './cached-answer.js';

export type { CachedAnswer, Coding };

import { ownBytes } from './answer-compression.js';

export { MIN_COMPRESSED_BYTES, zlibCompressor, type Compressor } from './answer-compression.js';

export interface ContentCacheOptions {
  ttlMs: number;
  /** How long past its TTL a copy may still be served while upstream fails. */
  maxStaleMs: number;
  maxBytes: number;
  clock?: Clock;
  /** Caps the upstream calls that misses make, across all clients; none when absent. */
  readBudget?: ReadBudget;
  /** Told of every lookup (bff_cache_lookups_total); absent, nothing is counted. */
  observer?: Pick<BffObserver, 'cacheLookup'>;
  /** The LRU shared by every site (one byte bound); absent, a store of this cache's own. */
  store?: ContentStore;
  /** Whose content this is; `default` when absent (the one clinic of APP_KEY). */
  site?: string;
  /** The revision of the site this cache's runtime was built from: its keys carry it (siteKey). */
  revision?: string;
}

/**
 * Sanitised upstream content in an LRU bounded in bytes. Concurrent misses
 * share one upstream call (lru-cache fetchMethod); a stale copy is served at
 * once while it is refreshed in the background (allowStale), and a failed
 * refresh keeps it (noDeleteOnFetchRejection), so a down upstream still gets
 * the last good copy served until it is maxStaleMs past its TTL; after that
 * the failure is answered instead.
 *
 * Not allowStaleOnFetchRejection: with nothing cached yet, it turns a failed
 * first load into `undefined` and loses the reason (timeout or not).
 *
 * Every miss and refresh takes one call from the read budget first: when it
 * is spent, the load fails at once (ReadBudgetSpent) without calling
 * upstream, so a stale copy goes on being served and nothing-cached is 503.
 */
export class ContentCache {
  private readonly cache: LRUCache<string, CachedAnswer, FetchContext>;
  private readonly now: () => number;
  /** Whose answers these are: every key starts with it and every answer carries it. */
  readonly site: string;

  constructor(
    private readonly upstream: UpstreamClient,
    private readonly options: ContentCacheOptions,
  ) {
    const clock = options.clock ?? systemClock;
    this.now = () => clock.now().getTime();
    this.site = options.site ?? 'default';
    this.cache = (options.store ?? new ContentStore({ ttlMs: options.ttlMs, maxBytes: options.maxBytes, clock })).lru;
  }

  /** This site's key for a resource's path (or a combined answer's key). */
  private key(path: string): string {
    return siteKey(this.site, path, this.options.revision);
  }

  /** The held answer when it is this site's; anything else is not there for this site (and never served). */
  private own(answer: CachedAnswer | undefined): CachedAnswer | undefined {
    return answer?.site === this.site ? answer : undefined;
  }

  /** The fetch of one resource: the key names the resource and this site, the context loads it from this site's upstream. */
  private fetch(resource: ContentResource, options: { forceRefresh?: boolean; allowStale?: boolean } = {}) {
    return this.cache.fetch(this.key(resource.path), { ...options, context: { load: () => this.load(resource) } });
  }

  /**
   * A resource's cached answer while it is fresh (within its TTL), without a
   * promise or a load: what nearly every request finds. undefined when it is
   * missing, stale or still loading: get() then decides.
   */
  fresh<T>(resource: ContentResource<T>): CachedAnswer<T> | undefined {
    // has() is false for a stale entry or one still loading, and drops nothing.
    const key = this.key(resource.path);
    const answer = this.cache.has(key) ? this.own(this.cache.get(key)) : undefined;
    if (!answer || !this.servable(answer)) return undefined;
    this.options.observer?.cacheLookup(resource.name.toLowerCase(), 'hit');
    return answer as CachedAnswer<T>;
  }

  /** A resource's answer, from cache when possible; throws UpstreamUnavailable. */
  async get<T>(resource: ContentResource<T>): Promise<CachedAnswer<T>> {
    if (this.options.observer) this.options.observer.cacheLookup(resource.name.toLowerCase(), this.lookupResult(resource.path));
    const answer = this.checked(await this.fetch(resource));
    if (answer && this.servable(answer)) return answer as CachedAnswer<T>;
    // Too stale to serve: only the refresh (already started by the fetch above) will do.
    const fresh = this.checked(await this.fetch(resource, { forceRefresh: true, allowStale: false }));
    if (!fresh || !this.servable(fresh)) throw new UpstreamUnavailable('unreachable', 'no fresh enough copy');
    return fresh as CachedAnswer<T>;
  }

  /** A fetched answer, refused loudly when it is another site's (a defect: keys and loads are this site's). */
  private checked(answer: CachedAnswer | undefined): CachedAnswer | undefined {
    if (answer && answer.site !== this.site) throw new Error('content cache: an answer of another site under this site\'s key');
    return answer;
  }

  /**
   * Several cached answers as one, from the very entries the single paths use
   * (so no upstream call of its own): built, and compressed, once for each
   * set of parts, and kept in the same LRU, counted in its byte bound. Its
   * ETag is of its own bytes, so it changes when any part does; a part that
   * is not 200 (a 404) is the answer instead.
   */
  async getCombined(combined: CombinedResource): Promise<CachedAnswer> {
    const parts = await Promise.all(combined.parts.map((resource) => this.get(resource)));
    return this.combine(combined, parts);
  }

  /** getCombined while every part is fresh, without a promise (see fresh()); undefined otherwise. */
  freshCombined(combined: CombinedResource): CachedAnswer | undefined {
    const parts: CachedAnswer[] = [];
    for (const resource of combined.parts) {
      const part = this.fresh(resource);
      if (!part) return undefined;
      parts.push(part);
    }
    return this.combine(combined, parts);
  }

  private combine(combined: CombinedResource, parts: CachedAnswer[]): CachedAnswer {
    const failed = parts.find((part) => part.status !== 200);
    if (failed) return failed;
    const builtFrom = parts.map((part) => part.etag).join(' ');
    const held = this.own(this.cache.get(this.key(combined.key), { allowStale: true }));
    if (held?.builtFrom === builtFrom) return held;
    // Read, not kept: most sites are only ever asked for bytes (ResourceAnswer).
    const body = combined.combine(parts.map((part) => (part instanceof ResourceAnswer ? part.peekValue() : part.value)));
    const answer = { ...this.answer(200, body, Math.min(...parts.map((part) => part.fetchedAt))), builtFrom };
    // No TTL of its own: it is checked against its parts at every request. Kept only while every part is
    // still held: a part gone meanwhile (its site dropped while getCombined waited) would leave it behind.
    if (combined.parts.every((resource, i) => this.cache.peek(this.key(resource.path), { allowStale: true }) === parts[i])) {
      this.cache.set(this.key(combined.key), answer, { ttl: 0 });
    }
    return answer;
  }

  /**
   * The answer of one item of a cached list (GET /api/treatments/{id}), or
   * undefined when the list has no such item. Made the first time that id is
   * asked for, then kept on the list's answer (and dropped with it): most
   * items of most sites are never asked for on their own, so building each
   * item's bytes and ETag at caching cost every site's cold start for
   * nothing (docs/performance.md, sites).
   */
  item(list: CachedAnswer, id: number): CachedAnswer | undefined {
    const made = list.itemAnswers?.get(id);
    if (made) return made;
    if (!list.items?.has(id)) return undefined;
    const answer = this.answer(200, list.items.get(id), list.fetchedAt);
    (list.itemAnswers ??= new Map()).set(id, answer);
    return answer;
  }

  /** What a lookup of `path` finds before it is answered: fresh, a servable stale copy, or nothing to serve. */
  private lookupResult(path: string): CacheLookupResult {
    const key = this.key(path);
    if (this.cache.has(key) && this.own(this.cache.peek(key))) return 'hit';
    const held = this.own(this.cache.peek(key, { allowStale: true }));
    return held && this.servable(held) ? 'stale' : 'miss';
  }

  private servable(answer: CachedAnswer): boolean {
    return this.now() - answer.fetchedAt <= this.options.ttlMs + this.options.maxStaleMs;
  }

  private async load(resource: ContentResource): Promise<CachedAnswer> {
    this.options.readBudget?.take();
    const { status, body } = await this.upstream.call({ method: 'GET', path: resource.path });
    if (status === 200) {
      const prepared = resource.prepare(body);
      if (!prepared.ok) throw new UpstreamUnavailable('server_error', `upstream ${resource.name} did not match the contract`);
      return new ResourceAnswer(this.answer(200, prepared.value), prepared.value, resource);
    }
    if (status === 404) {
      return this.answer(404, { success: false, message: `${resource.name} not found`, error_code: 'not_found' } satisfies ErrorBody);
    }
    throw new UpstreamUnavailable('server_error', `upstream answered ${status}`);
  }

  /**
   * A cached answer for a JSON value: its bytes and their ETag. Not its
   * compressed copies: AnswerCodings makes each when first asked for
   * (answer-compression.ts). One ETag for every coding: answers carry
   * Vary: Accept-Encoding, so caches keep the codings apart.
   */
  private answer(status: number, value: unknown, fetchedAt = this.now()): CachedAnswer {
    const body = ownBytes(Buffer.from(JSON.stringify(value)));
    const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
    return { status, body, etag, fetchedAt, site: this.site };
  }
}
