import type { Coding } from '../widget-hosting/precompressed.js';
import type { CachedAnswer } from './content-cache.js';
import { MIN_COMPRESSED_BYTES, zlibCompressor, type Compressor } from './answer-compression.js';

/** A cached answer as sent in one coding: its bytes, the coding they are in, and the ETag that names them. */
export interface Representation {
  readonly body: Buffer;
  readonly coding: Coding;
  readonly etag: string;
}

/**
 * `"abc"` in `coding`: `"abc-br"`, `"abc-gzip"`; the plain bytes keep `"abc"`.
 * Every representation has its own validator (RFC 9110 8.8.3.3), so an
 * If-None-Match names the bytes it came with, and a cache holding the brotli
 * bytes is never told that they match a plain request (or the other way
 * round). The same spelling as the demo page's (sendCompressed).
 */
export function etagOf(etag: string, coding: Coding): string {
  return coding === 'identity' ? etag : `${etag.slice(0, -1)}-${coding}"`;
}

/**
 * The representations of each cached answer, made the first time a coding is
 * asked for and kept beside it (a WeakMap, so they go when the cache drops the
 * answer): the plain bytes, or (from MIN_COMPRESSED_BYTES up) the bytes
 * compressed then, once, and sent to every later request
 * (answer-compression.ts).
 */
export class AnswerCodings {
  readonly #made = new WeakMap<CachedAnswer, Partial<Record<Coding, Representation>>>();

  constructor(private readonly compressor: Compressor = zlibCompressor) {}

  /** This answer in `coding`, or in plain bytes when it is too small to compress. */
  representation(answer: CachedAnswer, coding: Coding): Representation {
    let made = this.#made.get(answer);
    if (!made) {
      made = {};
      this.#made.set(answer, made);
    }
    return (made[coding] ??= this.make(answer, coding));
  }

  private make(answer: CachedAnswer, coding: Coding): Representation {
    if (coding === 'identity' || answer.body.length < MIN_COMPRESSED_BYTES) {
      return { body: answer.body, coding: 'identity', etag: answer.etag };
    }
    return { body: this.compressor[coding](answer.body), coding, etag: etagOf(answer.etag, coding) };
  }
}
