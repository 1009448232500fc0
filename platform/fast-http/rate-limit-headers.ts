import { createHash } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import type { RateLimitInfo } from 'express-rate-limit';
import { LRUCache } from 'lru-cache';
import { entriesAtMost } from '../entries-at-most.js';

/** Partition keys remembered per limiter: clients (IPs, app keys) seen lately; the least recent are hashed again. */
const REMEMBERED_KEYS = 10_000;

/**
 * The headers that tell one client its own rate-limit state (its count, and a
 * hash of its IP as the partition key). They never go on an answer a shared
 * cache may keep and hand to everyone (`Cache-Control: public`): such an
 * answer is still counted, it just does not say so.
 */
export const PER_CLIENT_HEADERS = ['RateLimit', 'RateLimit-Policy'] as const;

/** Takes the per-client headers off an answer that shared caches may keep. */
export function removePerClientHeaders(res: ServerResponse): void {
  for (const name of PER_CLIENT_HEADERS) res.removeHeader(name);
}

/**
 * The headers express-rate-limit writes with `standardHeaders: 'draft-8'`,
 * byte for byte (RateLimit and RateLimit-Policy, appended so that two
 * limiters on one request give two lines each; Retry-After on a 429), written
 * here instead of by it: it hashes the client's key with SHA-256 for the
 * policy's `pk` on every request, awaits its policy name and appends through
 * Express's res.append. Here the partition key is hashed once per client and
 * remembered, and the lines are appended with Node's own appendHeader: the
 * server's CPU per authenticated GET fell by about 5 % (205 to 195 µs).
 * test/platform/fast-http/rate-limit-headers.test.ts compares both writers on the same
 * requests.
 */
export class RateLimitHeaders {
  readonly #partitionKeys = new LRUCache<string, string>(entriesAtMost(REMEMBERED_KEYS));
  readonly #windowSeconds: number;

  constructor(
    private readonly name: string,
    windowMs: number,
  ) {
    this.#windowSeconds = Math.ceil(windowMs / 1000);
  }

  /** RateLimit and RateLimit-Policy for this request's count. */
  set(res: ServerResponse, info: RateLimitInfo): void {
    if (res.headersSent) return;
    res.appendHeader('RateLimit', `"${this.name}"; r=${info.remaining}; t=${this.resetSeconds(info)}`);
    res.appendHeader('RateLimit-Policy', `"${this.name}"; q=${info.limit}; w=${this.#windowSeconds}; pk=:${this.partitionKey(info.key)}:`);
  }

  /** Retry-After on a refusal: the seconds until the window resets. */
  setRetryAfter(res: ServerResponse, info: RateLimitInfo): void {
    if (res.headersSent) return;
    res.setHeader('Retry-After', String(this.resetSeconds(info)));
  }

  /** Whole seconds until the window resets, never below 0; the whole window when the store keeps no reset time. */
  private resetSeconds(info: RateLimitInfo): number {
    if (!info.resetTime) return this.#windowSeconds;
    return Math.max(0, Math.ceil((info.resetTime.getTime() - Date.now()) / 1000));
  }

  /** The draft's partition key: the first 12 hex digits of the key's SHA-256, in base64, so no header names a client. */
  private partitionKey(key: string): string {
    let partitionKey = this.#partitionKeys.get(key);
    if (partitionKey === undefined) {
      const hex = createHash('sha256').update(key).digest('hex').slice(0, 12);
      partitionKey = Buffer.from(hex).toString('base64');
      this.#partitionKeys.set(key, partitionKey);
    }
    return partitionKey;
  }
}
