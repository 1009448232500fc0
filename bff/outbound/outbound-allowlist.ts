import { BlockList } from 'node:net';
import { parseIp, type IpAddress } from './ip-address.js';

/** A host the operator trusts, on any port or one port. */
interface AllowedHost {
  /** As URL parsing writes a hostname: lower case, IPv4 as a dotted quad, IPv6 in brackets. */
  hostname: string;
  port?: number;
}

/**
 * OUTBOUND_ALLOWLIST: what the operator lets the BFF reach although it is not
 * public, e.g. a picture server on the clinic's own network. An entry is a
 * host (`pictures.internal`, `10.0.0.7`, `[fd00::7]`), a host and port
 * (`pictures.internal:8443`), or a CIDR range (`10.20.0.0/16`, `fd00::/8`)
 * that any resolved address may fall in.
 */
export class OutboundAllowlist {
  constructor(
    private readonly hosts: readonly AllowedHost[] = [],
    private readonly ranges: BlockList = new BlockList(),
    /** The entries as written, for the settings' description and logs. */
    readonly entries: readonly string[] = [],
  ) {}

  /** True when the URL's host (and port, when the entry names one) is listed. */
  allowsHost(url: URL): boolean {
    const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
    return this.hosts.some((host) => host.hostname === url.hostname && (host.port === undefined || host.port === port));
  }

  /** True when `address` falls in a listed range. */
  allowsAddress(address: IpAddress): boolean {
    return this.ranges.check(address.text, address.family === 4 ? 'ipv4' : 'ipv6');
  }
}

/** A malformed OUTBOUND_ALLOWLIST entry; its message names it. */
export class AllowlistError extends Error {}

/** OUTBOUND_ALLOWLIST's entries (or its comma list), parsed; throws an AllowlistError naming the first malformed entry. */
export function parseOutboundAllowlist(list: string | readonly string[]): OutboundAllowlist {
  const entries = (typeof list === 'string' ? list.split(',') : list).map((entry) => entry.trim()).filter(Boolean);
  const hosts: AllowedHost[] = [];
  const ranges = new BlockList();
  for (const entry of entries) {
    if (entry.includes('/')) addRange(ranges, entry);
    else hosts.push(allowedHost(entry));
  }
  return new OutboundAllowlist(hosts, ranges, entries);
}

const malformed = (entry: string) =>
  new AllowlistError(`entry ${JSON.stringify(entry.slice(0, 100))} is not a host, host:port or CIDR range such as 10.0.0.0/8`);

function addRange(ranges: BlockList, entry: string): void {
  const [base = '', bits = '', extra] = entry.split('/');
  // Written as it is read: an IPv6 spelling of IPv4 addresses (::ffff:10.0.0.0) is read as IPv4 (ip-address.ts), so its range would never match.
  const written = base.includes(':') ? 6 : 4;
  const family = parseIp(base)?.family === written ? (written === 4 ? 'ipv4' : 'ipv6') : undefined;
  const prefix = Number(bits);
  if (!family || extra !== undefined || !/^\d{1,3}$/.test(bits) || prefix > (family === 'ipv4' ? 32 : 128)) throw malformed(entry);
  ranges.addSubnet(base, prefix, family);
}

function allowedHost(entry: string): AllowedHost {
  const match = /^(\[[^\]]+\]|[^\s:/?#@[\]\\]+)(?::(\d{1,5}))?$/.exec(entry) ?? (parseIp(entry) ? [entry, `[${entry}]`] : null);
  const port = match?.[2] === undefined ? undefined : Number(match[2]);
  let hostname: string | undefined;
  try {
    // Written as URL parsing writes it, so that `127.1` and `LOCALHOST` match the URLs that name them.
    hostname = match ? new URL(`http://${match[1]}/`).hostname : undefined;
  } catch {
    hostname = undefined;
  }
  if (!hostname || (port !== undefined && (port < 1 || port > 65535))) throw malformed(entry);
  return { hostname, port };
}
