import { createHash } from 'node:crypto';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import type { Request, Response } from 'express';

/** The content codings the BFF has precompressed copies in, by its order of preference (smallest first). */
export const ENCODINGS = [
  { coding: 'br', suffix: '.br' },
  { coding: 'gzip', suffix: '.gz' },
] as const;
export type Coding = (typeof ENCODINGS)[number]['coding'] | 'identity';
const PREFERENCE: readonly Coding[] = ['br', 'gzip', 'identity'];

/**
 * The content coding to send, from Accept-Encoding (RFC 9110 12.5.3): the
 * highest q among br, gzip and identity, ties going to the smaller (br, then
 * gzip). Not the client's own order: Chrome sends "gzip, deflate, br, zstd",
 * all at q=1. `*` stands for any coding not named; identity is acceptable
 * unless refused, and is the answer when nothing else is.
 */
export function chooseEncoding(acceptEncoding: string | undefined): Coding {
  const q = new Map<string, number>();
  for (const part of (acceptEncoding ?? '').split(',')) {
    const [coding = '', ...params] = part.split(';');
    const name = coding.trim().toLowerCase();
    const qParam = params.map((param) => param.trim().toLowerCase()).find((param) => param.startsWith('q='));
    const value = qParam === undefined ? 1 : Number(qParam.slice(2));
    if (name) q.set(name, Number.isFinite(value) ? value : 0);
  }
  const weight = (coding: Coding) => q.get(coding) ?? q.get('*') ?? (coding === 'identity' ? 1 : 0);
  let best: Coding = 'identity';
  let bestWeight = 0;
  for (const coding of PREFERENCE) {
    if (weight(coding) > bestWeight) [best, bestWeight] = [coding, weight(coding)];
  }
  return best;
}

/** A strong ETag from the bytes themselves, the same on every instance that serves the same bytes. */
export const contentEtag = (body: Buffer | string) => `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"`;

/** Brotli at quality 11 (text mode) and gzip at level 9: worth it for what is compressed once and sent often. */
export function compressOnce(body: Buffer): Record<Coding, Buffer> {
  return {
    identity: body,
    br: brotliCompressSync(body, {
      params: {
        [zlib.BROTLI_PARAM_MODE]: zlib.BROTLI_MODE_TEXT,
        [zlib.BROTLI_PARAM_QUALITY]: zlib.BROTLI_MAX_QUALITY,
        [zlib.BROTLI_PARAM_SIZE_HINT]: body.length,
      },
    }),
    gzip: gzipSync(body, { level: zlib.Z_BEST_COMPRESSION }),
  };
}

/**
 * Answers one of `variants` (compressOnce) as Accept-Encoding allows, with
 * `Vary: Accept-Encoding`, a strong ETag per coding and 304 to a matching
 * If-None-Match. The caller sets Content-Type and Cache-Control.
 */
export function sendCompressed(req: Request, res: Response, variants: Record<Coding, Buffer>, etag: string): void {
  const coding = chooseEncoding(req.get('accept-encoding'));
  res.vary('Accept-Encoding');
  // One ETag per representation: a cache must not answer a gzip request with the brotli bytes.
  res.set('ETag', coding === 'identity' ? etag : `${etag.slice(0, -1)}-${coding}"`);
  if (coding !== 'identity') res.set('Content-Encoding', coding);
  if (req.fresh) {
    res.status(304).end();
    return;
  }
  res.send(variants[coding]);
}
