import { BlockList } from 'node:net';
import type { IpAddress } from './ip-address.js';

/**
 * The IPv4 ranges that are not the public internet: IANA's special-purpose
 * registry (RFC 6890 and successors) where it says "not globally reachable",
 * and multicast and the reserved block. An address in one of them is inside
 * someone's network (the BFF's own, its cloud's metadata service, a carrier's
 * NAT), never a clinic's public picture host.
 */
const NON_PUBLIC_IPV4: readonly [string, number, string][] = [
  ['0.0.0.0', 8, 'this network, and the unspecified address (which connects to the host itself)'],
  ['10.0.0.0', 8, 'private (RFC 1918)'],
  ['100.64.0.0', 10, 'carrier-grade NAT (RFC 6598)'],
  ['127.0.0.0', 8, 'loopback'],
  ['169.254.0.0', 16, 'link-local, where cloud metadata services answer'],
  ['172.16.0.0', 12, 'private (RFC 1918)'],
  ['192.0.0.0', 24, 'IETF protocol assignments'],
  ['192.0.2.0', 24, 'documentation'],
  ['192.88.99.0', 24, 'the retired 6to4 relay anycast'],
  ['192.168.0.0', 16, 'private (RFC 1918)'],
  ['198.18.0.0', 15, 'benchmarking'],
  ['198.51.100.0', 24, 'documentation'],
  ['203.0.113.0', 24, 'documentation'],
  ['224.0.0.0', 4, 'multicast'],
  ['240.0.0.0', 4, 'reserved, and the broadcast address'],
];

/**
 * IPv6 is judged the other way round: only global unicast (2000::/3) can be
 * public, less the parts of it that are not. Loopback, unspecified,
 * link-local, unique-local, site-local, multicast, discard, local NAT64 and
 * every future allocation are outside it. (v4-mapped, v4-compatible, NAT64
 * and 6to4 addresses were read as their IPv4 address before: ip-address.ts.)
 */
const GLOBAL_UNICAST_IPV6: readonly [string, number] = ['2000::', 3];
const NON_PUBLIC_IPV6: readonly [string, number, string][] = [
  ['2001::', 23, 'IETF protocol assignments: Teredo, benchmarking, ORCHID'],
  ['2001:db8::', 32, 'documentation'],
  ['3fff::', 20, 'documentation'],
  ['5f00::', 16, 'segment routing (SRv6) identifiers'],
];

const nonPublic = new BlockList();
for (const [prefix, bits] of NON_PUBLIC_IPV4) nonPublic.addSubnet(prefix, bits, 'ipv4');
for (const [prefix, bits] of NON_PUBLIC_IPV6) nonPublic.addSubnet(prefix, bits, 'ipv6');
const globalUnicast = new BlockList();
globalUnicast.addSubnet(GLOBAL_UNICAST_IPV6[0], GLOBAL_UNICAST_IPV6[1], 'ipv6');

/** True when `address` is on the public internet: in no range above. */
export function isPublicAddress(address: IpAddress): boolean {
  if (address.family === 4) return !nonPublic.check(address.text, 'ipv4');
  return globalUnicast.check(address.text, 'ipv6') && !nonPublic.check(address.text, 'ipv6');
}
