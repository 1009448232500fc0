import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { ErrorBody } from '../../contract/index.js';
import type { UpstreamClient } from '../upstream/upstream-client.js';
import { systemClock, type Clock } from '../../platform/clock.js';
import { UpstreamUnavailable } from '../upstream/errors.js';
import type { ContentResource } from './resources.js';

/** One cached answer, ready to send: status, bytes, ETag and when it was fetched. */
export interface CachedAnswer {
  status: number;
  body: Buffer;
  etag: string;
  fetchedAt: number;
}

export interface ContentCacheOptions {
  ttlMs: number;
  /** How long past its TTL a copy may still be served while upstream fails. */
  maxStaleMs: number;
  maxBytes: number;
  clock?: Clock;
}

interface FetchContext {
  resource: ContentResource;
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
 */
export class ContentCache {
  private readonly cache: LRUCache<string, CachedAnswer, FetchContext>;
  private readonly now: () => number;

  constructor(
    private readonly upstream: UpstreamClient,
    private readonly options: ContentCacheOptions,
  ) {
    const clock = options.clock ?? systemClock;
    this.now = () => clock.now().getTime();
    this.cache = new LRUCache<string, CachedAnswer, FetchContext>({
      maxSize: options.maxBytes,
      sizeCalculation: (answer, path) => answer.body.length + path.length + 100,
      ttl: options.ttlMs,
      allowStale: true,
      noDeleteOnFetchRejection: true,
      perf: { now: this.now },
      fetchMethod: (path, _stale, { context }) => this.load(path, context.resource),
    });
  }

  /** The answer for an upstream path, from cache when possible; throws UpstreamUnavailable. */
  async get(path: string, resource: ContentResource): Promise<CachedAnswer> {
    const answer = await this.cache.fetch(path, { context: { resource } });
    if (answer && this.servable(answer)) return answer;
    // Too stale to serve: only the refresh (already started by the fetch above) will do.
    const fresh = await this.cache.fetch(path, { context: { resource }, forceRefresh: true, allowStale: false });
    if (!fresh || !this.servable(fresh)) throw new UpstreamUnavailable('unreachable', 'no fresh enough copy');
    return fresh;
  }

  private servable(answer: CachedAnswer): boolean {
    return this.now() - answer.fetchedAt <= this.options.ttlMs + this.options.maxStaleMs;
  }

  private async load(path: string, resource: ContentResource): Promise<CachedAnswer> {
    const { status, body } = await this.upstream.call({ method: 'GET', path });
    if (status === 200) {
      const prepared = resource.prepare(body);
      if (!prepared.ok) throw new UpstreamUnavailable('server_error', `upstream ${resource.name} did not match the contract`);
      return this.answer(200, prepared.body);
    }
    if (status === 404) {
      return this.answer(404, { success: false, message: `${resource.name} not found`, error_code: 'not_found' } satisfies ErrorBody);
    }
    throw new UpstreamUnavailable('server_error', `upstream answered ${status}`);
  }

  private answer(status: number, value: unknown): CachedAnswer {
    const body = Buffer.from(JSON.stringify(value));
    const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
    return { status, body, etag, fetchedAt: this.now() };
  }
}
