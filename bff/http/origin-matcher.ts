/**
 * Whether a request's Origin header names one of a site's allowed origins
 * (CORS). Entries are in the canonical form bff/sites/site-origin.ts
 * writes (or ALLOWED_ORIGINS's `URL.origin`s):
 *
 * - exact, `https://clinic.example`: the header, parsed as a URL, must be an
 *   http(s) origin written exactly as URL parsing writes it, and equal the entry;
 * - wildcard, `https://*.clinic.example`: the same scheme and port, and a host
 *   that ends in `.clinic.example` with at least one label before it. So
 *   `https://evil-clinic.example` (no label boundary), `https://clinic.example`
 *   (the apex), `https://clinic.example.evil.net` and `null` never match.
 */
export type OriginMatcher = (origin: string) => boolean;

interface Wildcard {
  scheme: string;
  /** `.clinic.example`: a matching host ends with it and is longer. */
  suffix: string;
  port: string;
}

export function originMatcher(entries: readonly string[]): OriginMatcher {
  const exact = new Set<string>();
  const wildcards: Wildcard[] = [];
  for (const entry of entries) {
    const wildcard = /^(https?):\/\/\*(\.[^/:]+)(?::(\d+))?$/.exec(entry);
    if (wildcard) wildcards.push({ scheme: `${wildcard[1]!}:`, suffix: wildcard[2]!.toLowerCase(), port: wildcard[3] ?? '' });
    else exact.add(entry);
  }
  return (origin) => {
    // The fast path, and all there is without wildcards: an entry is canonical, so a header equal to it is too.
    if (exact.has(origin)) return true;
    if (wildcards.length === 0) return false;
    const url = canonical(origin);
    if (!url) return false;
    const host = url.hostname;
    return wildcards.some(
      ({ scheme, suffix, port }) => url.protocol === scheme && url.port === port && host.length > suffix.length && host.endsWith(suffix),
    );
  };
}

/** The header as a URL when it is an http(s) origin written exactly as URL parsing writes one; undefined otherwise (`null` too). */
function canonical(origin: string): URL | undefined {
  if (!URL.canParse(origin)) return undefined;
  const url = new URL(origin);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  return url.origin === origin ? url : undefined;
}
