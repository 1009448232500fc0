/**
 * A site's allowed origins as the CLI takes them, checked and written in one
 * canonical form. Only their shape is checked here; matching a request's
 * Origin against them belongs to CORS (origin-matcher.ts).
 *
 * - An exact origin, `https://clinic.example` or `http://127.0.0.1:8080`:
 *   scheme, host and port only (a path, query, fragment or user is refused,
 *   not dropped, since it says the entry was meant as something else); kept as
 *   URL parsing writes it (lower case, default port left out).
 * - A wildcard, `https://*.clinic.example`: every subdomain of a registrable
 *   looking name. `*` stands for whole labels at the front only; the rest must
 *   have at least two labels and not be an IP address, so `https://*.com` and
 *   `https://*` are refused.
 */
export function canonicalOrigin(entry: string): string {
  const wildcard = /^(https?):\/\/\*\.(.+)$/i.exec(entry);
  if (wildcard) return canonicalWildcard(wildcard[1]!.toLowerCase(), wildcard[2]!, entry);
  const url = parseUrl(entry);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new OriginError(entry, 'must be http: or https:');
  if (entry.includes('*')) throw new OriginError(entry, 'a wildcard is allowed only as the first label: https://*.example.com');
  if (url.username || url.password || url.search || url.hash || !/^[a-z][a-z0-9+.-]*:\/\/[^/]+\/?$/i.test(entry)) {
    throw new OriginError(entry, 'must be an origin (scheme, host and port) without a path, query or user');
  }
  return url.origin;
}

function canonicalWildcard(scheme: string, rest: string, entry: string): string {
  const url = parseUrl(`${scheme}://${rest}`);
  if (rest.includes('*') || url.pathname !== '/' || url.search || url.hash || url.username || rest.endsWith('/')) {
    throw new OriginError(entry, 'a wildcard entry is https://*.example.com: one leading *, no path');
  }
  const host = url.hostname;
  if (/^[\d.]+$/.test(host) || host.startsWith('[')) throw new OriginError(entry, 'a wildcard needs a domain name, not an IP address');
  if (host.split('.').filter(Boolean).length < 2) throw new OriginError(entry, 'a wildcard needs at least two labels after *. (https://*.example.com)');
  return `${scheme}://*.${url.host}`;
}

function parseUrl(value: string): URL {
  try {
    return new URL(value);
  } catch {
    throw new OriginError(value, 'is not a URL');
  }
}

/** A malformed origin entry, named in the message (an origin is public, never a secret). */
export class OriginError extends Error {
  constructor(entry: string, problem: string) {
    super(`origin ${JSON.stringify(entry)} ${problem}`);
  }
}
