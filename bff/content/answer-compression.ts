import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';

/** Compresses an answer's bytes, once per cache entry and coding. */
export interface Compressor {
  br(body: Buffer): Buffer;
  gzip(body: Buffer): Buffer;
}

/**
 * Brotli at quality 11 (text mode) and gzip at level 9, synchronously: the
 * answers are a few KB and each is compressed once per TTL, then sent often.
 *
 * Once, and only when asked (AnswerCodings): the first request for an
 * answer in a coding compresses it, and every later one is sent those same
 * bytes. Compressing at caching instead made every site's cold start pay
 * for codings no client might ever ask for: with 1,000 sites, brotli and
 * gzip of five answers and every list item each, 41 % of the cold start's
 * CPU, and compressed copies held for each (docs/performance.md, sites).
 * Being synchronous, one compression per answer and coding is single-flight
 * by itself: no second request can run while it does.
 */
export const zlibCompressor: Compressor = {
  br: (body) =>
    ownBytes(
      brotliCompressSync(body, {
        params: {
          [zlib.BROTLI_PARAM_MODE]: zlib.BROTLI_MODE_TEXT,
          [zlib.BROTLI_PARAM_QUALITY]: zlib.BROTLI_MAX_QUALITY,
          [zlib.BROTLI_PARAM_SIZE_HINT]: body.length,
        },
      }),
    ),
  gzip: (body) => ownBytes(gzipSync(body, { level: zlib.Z_BEST_COMPRESSION })),
};

/**
 * The same bytes in memory of exactly their length, for what is kept as
 * long as a cached answer. zlib's sync output is a view of its 16 KiB
 * output chunk, and a small Buffer.from() a view of an 8 KiB shared pool
 * slab: kept, either view holds all of it (a heap snapshot of 100 sites
 * showed 16 KiB held per site for a gzipped /content of about 3 KiB, and
 * an 8 KiB slab per site for its small answers).
 */
export function ownBytes(bytes: Buffer): Buffer {
  if (bytes.byteOffset === 0 && bytes.buffer.byteLength === bytes.length) return bytes;
  const own = Buffer.allocUnsafeSlow(bytes.length);
  bytes.copy(own);
  return own;
}

/** Answers smaller than this are sent as they are: compressing them saves less than a packet. */
export const MIN_COMPRESSED_BYTES = 1024;

/**
 * The bytes the content store reserves for an answer's compressed copies
 * before they exist (they are made on request, after the store counted the
 * answer): half its plain bytes, for brotli and gzip together. JSON of the
 * demo clinic compresses to well under a quarter in each.
 */
export const compressedReserve = (body: Buffer): number => (body.length < MIN_COMPRESSED_BYTES ? 0 : Math.ceil(body.length / 2));
