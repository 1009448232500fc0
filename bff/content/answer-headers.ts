import type { ServerResponse } from 'node:http';
import { chooseEncoding, type Coding } from '../widget-hosting/precompressed.js';
import type { CachedAnswer } from './content-cache.js';
import { MIN_COMPRESSED_BYTES, zlibCompressor, type Compressor } from './answer-compression.js';

/** One header, as res.setHeader takes it. */
type Header = readonly [name: string, value: string];

/** What a cached answer sends in one coding: its headers and its bytes, and the headers of a 304 for it. */
export interface Representation {
  readonly headers: readonly Header[];
  readonly body: Buffer;
  /** The headers a 304 for this representation carries: its ETag and Cache-Control (Vary is set apart). */
  readonly notModified: readonly Header[];
}

/** What a cached answer has been sent as so far, by coding: each worked out once per cache entry, when first asked for. */
type Prepared = Partial<Record<Coding, Representation>>;

const CONTENT_TYPE = 'application/json; charset=utf-8';

/** Caches of the content differ by the requesting site (CORS) and by coding. */
export const CONTENT_VARY = 'Origin, Accept-Encoding';

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
 * The headers of each cached answer, in each coding it is kept in, made the
 * first time the answer is sent and kept beside it (a WeakMap, so they go
 * when the cache drops the answer): a request for a cached answer only sets
 * them, instead of working out its Content-Type, Content-Length, Vary and
 * coding again through Express's res.set / res.vary / res.type / res.send.
 */
export class AnswerHeaders {
  private readonly prepared = new WeakMap<CachedAnswer, Prepared>();

  constructor(
    private readonly cacheControl: string,
    private readonly compressor: Compressor = zlibCompressor,
  ) {}

  /** The bytes and headers to send for this answer in `coding`, or in plain bytes when it is too small to compress. */
  representation(answer: CachedAnswer, coding: Coding): Representation {
    let prepared = this.prepared.get(answer);
    if (!prepared) {
      prepared = {};
      this.prepared.set(answer, prepared);
    }
    return (prepared[coding] ??= this.prepare(answer, coding));
  }

  /**
   * One coding's representation, made the first time it is asked for: the
   * plain bytes, or (from MIN_COMPRESSED_BYTES up) the bytes compressed now,
   * once, and sent to every later request (answer-compression.ts).
   */
  private prepare(answer: CachedAnswer, coding: Coding): Representation {
    if (coding === 'identity' || answer.body.length < MIN_COMPRESSED_BYTES) {
      return this.representationOf(answer, answer.body, 'identity');
    }
    return this.representationOf(answer, this.compressor[coding](answer.body), coding);
  }

  private representationOf(answer: CachedAnswer, body: Buffer, coding: Coding): Representation {
    const notModified: Header[] = [
      ['ETag', etagOf(answer.etag, coding)],
      ['Cache-Control', this.cacheControl],
    ];
    return {
      headers: [
        ...notModified,
        ['Content-Type', CONTENT_TYPE],
        ['Content-Length', String(body.length)],
        ...(coding === 'identity' ? [] : [['Content-Encoding', coding] as const]),
      ],
      body,
      notModified,
    };
  }
}

/** Sets each header on the response. */
export function setHeaders(res: ServerResponse, headers: readonly Header[]): void {
  for (const [name, value] of headers) res.setHeader(name, value);
}

/**
 * Vary: Origin, Accept-Encoding. When nothing or only CORS's `Origin` was set
 * before (every request so far), one setHeader; anything else is merged.
 */
export function varyOnOriginAndEncoding(res: ServerResponse & { vary(field: string): unknown }): void {
  const current = res.getHeader('Vary');
  if (current === undefined || current === 'Origin') res.setHeader('Vary', CONTENT_VARY);
  else {
    res.vary('Origin');
    res.vary('Accept-Encoding');
  }
}

/** Distinct Accept-Encoding values remembered: browsers send a handful; anything past this is parsed each time. */
const KNOWN_ACCEPT_ENCODINGS = 64;

/**
 * chooseEncoding, remembered per Accept-Encoding value: the few values
 * browsers send ("gzip, deflate, br, zstd") are parsed once, not per request.
 */
export function encodingChooser(): (acceptEncoding: string | undefined) => Coding {
  const known = new Map<string | undefined, Coding>();
  return (acceptEncoding) => {
    let coding = known.get(acceptEncoding);
    if (coding === undefined) {
      coding = chooseEncoding(acceptEncoding);
      if (known.size < KNOWN_ACCEPT_ENCODINGS) known.set(acceptEncoding, coding);
    }
    return coding;
  };
}
