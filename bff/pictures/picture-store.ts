import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import type { Clock } from '../../platform/clock.js';

/**
 * The types a picture may have. SVG can carry script when opened on its own
 * (never inside an <img>): the route answers every picture with a sandboxing
 * CSP, so it cannot run on the BFF's origin either.
 */
export const PICTURE_TYPES = ['image/jpeg', 'image/png', 'image/webp', 'image/avif', 'image/gif', 'image/svg+xml'] as const;

export interface Picture {
  type: string;
  body: Buffer;
  etag: string;
}

/** Why a picture is not served: a failure of its host, or a picture the BFF refuses to pass on. */
export type PictureRefusal = 'unreachable' | 'not_an_image' | 'too_large';

export class PictureRefused extends Error {
  constructor(readonly reason: PictureRefusal) {
    super(`picture refused: ${reason}`);
  }
}

export interface PictureStoreOptions {
  /** The largest picture passed on, in bytes. */
  maxPictureBytes: number;
  /** All cached pictures together, in bytes. */
  maxBytes: number;
  ttlMs: number;
  timeoutMs: number;
  clock: Clock;
}

/**
 * The clinic's pictures, fetched from wherever its content says they are and
 * kept in an LRU bounded in bytes for `ttlMs`, so a popular page costs the
 * picture's host one request per picture per TTL (concurrent misses share
 * one). Past its TTL a picture is served at once while it is fetched again
 * (allowStale), and a failed refresh keeps it (noDeleteOnFetchRejection), so
 * pictures outlast an outage of their host as the content does; a picture
 * the content no longer names is refused by the route whatever is cached. A picture must answer 200 with an image type of PICTURE_TYPES and at
 * most `maxPictureBytes` (checked on Content-Length and again as it streams);
 * redirects are refused, so a named URL cannot lead the BFF elsewhere.
 */
export class PictureStore {
  private readonly cache: LRUCache<string, Picture>;

  constructor(private readonly options: PictureStoreOptions) {
    this.cache = new LRUCache<string, Picture>({
      maxSize: options.maxBytes,
      sizeCalculation: (picture) => Math.max(1, picture.body.length),
      maxEntrySize: options.maxPictureBytes,
      ttl: options.ttlMs,
      // lru-cache would otherwise reuse one reading of the clock for 1 ms (see ContentCache).
      ttlResolution: 0,
      allowStale: true,
      noDeleteOnFetchRejection: true,
      perf: { now: () => options.clock.now().getTime() },
      fetchMethod: (url) => this.download(url),
    });
  }

  /** The picture at `url` (a URL the clinic's content names: the caller checks). */
  async get(url: string): Promise<Picture> {
    const picture = await this.cache.fetch(url);
    if (!picture) throw new PictureRefused('unreachable');
    return picture;
  }

  private async download(url: string): Promise<Picture> {
    const { maxPictureBytes, timeoutMs } = this.options;
    let res: Response;
    try {
      res = await fetch(url, { redirect: 'error', signal: AbortSignal.timeout(timeoutMs), headers: { accept: PICTURE_TYPES.join(',') } });
    } catch {
      throw new PictureRefused('unreachable');
    }
    const abort = () => void res.body?.cancel().catch(() => undefined);
    if (res.status !== 200 || !res.body) {
      abort();
      throw new PictureRefused('unreachable');
    }
    const type = (res.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
    if (!(PICTURE_TYPES as readonly string[]).includes(type)) {
      abort();
      throw new PictureRefused('not_an_image');
    }
    if (Number(res.headers.get('content-length') ?? 0) > maxPictureBytes) {
      abort();
      throw new PictureRefused('too_large');
    }
    const chunks: Uint8Array[] = [];
    let total = 0;
    try {
      for await (const chunk of res.body) {
        total += chunk.byteLength;
        if (total > maxPictureBytes) {
          abort();
          throw new PictureRefused('too_large');
        }
        chunks.push(chunk);
      }
    } catch (error) {
      throw error instanceof PictureRefused ? error : new PictureRefused('unreachable');
    }
    const body = Buffer.concat(chunks, total);
    return { type, body, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"` };
  }
}
