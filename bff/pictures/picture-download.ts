import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { OutboundRefused, type OutboundPolicy } from '../outbound/outbound-policy.js';
import { requestOutbound } from '../outbound/outbound-request.js';

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

/**
 * Why a picture is not served, for the operator's log: its URL is not one the
 * BFF may call (bff/outbound/), its host failed, or it is no picture the BFF
 * passes on. The browser is told none of this (pictures.routes.ts).
 */
export type PictureRefusal = 'not_allowed' | 'unreachable' | 'not_an_image' | 'too_large' | 'encoded';

export class PictureRefused extends Error {
  constructor(readonly reason: PictureRefusal) {
    super(`picture refused: ${reason}`);
  }
}

export interface PictureDownload {
  /** The upstream origin of the site whose content names the picture: the outbound rule always allows it. */
  upstreamOrigin: string;
  outbound: OutboundPolicy;
  maxPictureBytes: number;
  timeoutMs: number;
  /** Aborts the download (its cache entry was dropped). */
  evicted: AbortSignal;
}

/**
 * One picture from `url`, when the outbound rule lets the BFF call it: it
 * must answer 200, unencoded, with an image type of PICTURE_TYPES and at most
 * `maxPictureBytes` (checked on Content-Length and again as it streams),
 * within `timeoutMs`. No redirect is followed, so a named URL cannot lead the
 * BFF elsewhere, and nothing is decompressed, so no small answer can grow.
 * Any failure is a PictureRefused naming why.
 */
export async function downloadPicture(url: string, { upstreamOrigin, outbound, maxPictureBytes, timeoutMs, evicted }: PictureDownload): Promise<Picture> {
  const signal = AbortSignal.any([evicted, AbortSignal.timeout(timeoutMs)]);
  let res: IncomingMessage;
  try {
    const target = await outbound.check(url, upstreamOrigin);
    res = await requestOutbound(target, { headers: PICTURE_REQUEST_HEADERS, signal });
  } catch (error) {
    const refused = error instanceof OutboundRefused && error.reason !== 'unresolved';
    throw new PictureRefused(refused ? 'not_allowed' : 'unreachable');
  }
  try {
    return await readPicture(res, maxPictureBytes);
  } catch (error) {
    res.destroy();
    throw error instanceof PictureRefused ? error : new PictureRefused('unreachable');
  }
}

/** Asks for an image, unencoded: an encoded answer is refused rather than inflated. */
const PICTURE_REQUEST_HEADERS = { accept: PICTURE_TYPES.join(','), 'accept-encoding': 'identity', 'user-agent': 'clinic-booking-bff' };

async function readPicture(res: IncomingMessage, maxPictureBytes: number): Promise<Picture> {
  // A 3xx too: no redirect is followed.
  if (res.statusCode !== 200) throw new PictureRefused('unreachable');
  const encoding = res.headers['content-encoding'];
  if (encoding && encoding.toLowerCase() !== 'identity') throw new PictureRefused('encoded');
  const type = (res.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  if (!(PICTURE_TYPES as readonly string[]).includes(type)) throw new PictureRefused('not_an_image');
  if (Number(res.headers['content-length'] ?? 0) > maxPictureBytes) throw new PictureRefused('too_large');
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of res as AsyncIterable<Buffer>) {
    total += chunk.byteLength;
    if (total > maxPictureBytes) throw new PictureRefused('too_large');
    chunks.push(chunk);
  }
  const body = Buffer.concat(chunks, total);
  return { type, body, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"` };
}
