import { lookup } from 'node:dns/promises';
import { parseIp, type IpAddress } from './ip-address.js';
import { isPublicAddress } from './public-address.js';
import { OutboundAllowlist } from './outbound-allowlist.js';

/** Every address a host name resolves to, as the connection would find them (getaddrinfo: /etc/hosts, then DNS). */
export type HostResolver = (hostname: string) => Promise<string[]>;

export const systemResolver: HostResolver = async (hostname) =>
  (await lookup(hostname, { all: true, verbatim: true })).map((found) => found.address);

/** Why a URL may not be called: not http(s), a host that does not resolve, or an address inside a network. */
export type OutboundRefusal = 'not_http' | 'unresolved' | 'not_public';

export class OutboundRefused extends Error {
  constructor(
    readonly reason: OutboundRefusal,
    /** The address refused (not_public), for the operator's log or the CLI's line. */
    readonly address?: string,
  ) {
    super(reason === 'not_public' ? `${address} is not a public address` : reason === 'unresolved' ? 'the host does not resolve' : 'not an http(s) URL');
  }
}

/** A URL the policy let through, and the one address to connect to: the address that was checked. */
export interface OutboundTarget {
  url: URL;
  address: string;
  family: 4 | 6;
}

export interface OutboundPolicyOptions {
  allowlist?: OutboundAllowlist;
  /** Tests make a name resolve to loopback here, without /etc/hosts. */
  resolve?: HostResolver;
}

/**
 * The one rule for every URL the BFF calls on someone else's word (a
 * picture a clinic's content names; a webhook a site registers), so that
 * the BFF cannot be made to reach into the network it runs in. A URL is let
 * through when it is http(s) and:
 *
 * - its origin is the caller's own upstream origin (scheme, host and port of
 *   the site's API URL), which the operator chose: the demo's pictures live
 *   on the reference server at 127.0.0.1; or
 * - its host (and port) is in OUTBOUND_ALLOWLIST; or
 * - every address its host resolves to is public (public-address.ts) or in a
 *   range of OUTBOUND_ALLOWLIST. One address inside a network refuses the
 *   whole name, so a name that answers with both cannot be raced.
 *
 * The host is resolved once, here; the connection goes to the address
 * returned (outbound-request.ts), never to a second lookup that could answer
 * otherwise. Every spelling of an address is judged as what it reaches:
 * URL parsing writes `2130706433`, `0x7f000001` and `127.1` as 127.0.0.1, and
 * ip-address.ts reads v4-mapped, v4-compatible, NAT64 and 6to4 IPv6 as IPv4.
 */
export class OutboundPolicy {
  private readonly allowlist: OutboundAllowlist;
  private readonly resolve: HostResolver;

  constructor(options: OutboundPolicyOptions = {}) {
    this.allowlist = options.allowlist ?? new OutboundAllowlist();
    this.resolve = options.resolve ?? systemResolver;
  }

  /** The target to connect to; throws OutboundRefused. `ownOrigin`: the caller's upstream origin, always allowed. */
  async check(url: string | URL, ownOrigin?: string): Promise<OutboundTarget> {
    const parsed = httpUrl(url);
    const trusted = (ownOrigin !== undefined && parsed.origin === ownOrigin) || this.allowlist.allowsHost(parsed);
    const addresses = await this.addressesOf(parsed.hostname);
    if (!trusted) {
      const inside = addresses.find((address) => !isPublicAddress(address) && !this.allowlist.allowsAddress(address));
      if (inside) throw new OutboundRefused('not_public', inside.given);
    }
    const first = addresses[0]!;
    return { url: parsed, address: first.given, family: first.givenFamily };
  }

  private async addressesOf(hostname: string): Promise<IpAddress[]> {
    const literal = parseIp(hostname);
    if (literal) return [literal];
    let found: string[];
    try {
      found = await this.resolve(hostname);
    } catch {
      throw new OutboundRefused('unresolved');
    }
    const addresses = found.map(parseIp).filter((address): address is IpAddress => address !== undefined);
    if (addresses.length === 0) throw new OutboundRefused('unresolved');
    return addresses;
  }
}

function httpUrl(url: string | URL): URL {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new OutboundRefused('not_http');
  }
  // Credentials in a URL would be sent to whoever answers it.
  if ((parsed.protocol !== 'http:' && parsed.protocol !== 'https:') || parsed.username || parsed.password) throw new OutboundRefused('not_http');
  return parsed;
}
