import { describe, expect, it } from 'vitest';
import { parseIp } from '../../../bff/outbound/ip-address.js';
import { isPublicAddress } from '../../../bff/outbound/public-address.js';

const isPublic = (address: string) => {
  const parsed = parseIp(address);
  if (!parsed) throw new Error(`not an address: ${address}`);
  return isPublicAddress(parsed);
};

describe('isPublicAddress', () => {
  it.each([
    ['8.8.8.8', 'a public IPv4 address'],
    ['1.1.1.1', 'another'],
    ['100.63.255.255', 'just below carrier-grade NAT'],
    ['100.128.0.0', 'just above it'],
    ['172.15.255.255', 'just below 172.16/12'],
    ['172.32.0.0', 'just above it'],
    ['2606:4700:4700::1111', 'a public IPv6 address'],
    ['::ffff:8.8.8.8', 'a public IPv4 address, v4-mapped'],
    ['64:ff9b::808:808', 'a public IPv4 address through NAT64'],
    ['2002:808:808::1', 'a public IPv4 address through 6to4'],
  ])('takes %s (%s) as public', (address) => {
    expect(isPublic(address)).toBe(true);
  });

  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback, anywhere in 127/8'],
    ['0.0.0.0', 'unspecified, which connects to the host itself'],
    ['0.1.2.3', 'this network'],
    ['10.0.0.1', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['100.64.0.1', 'carrier-grade NAT'],
    ['100.127.255.255', 'carrier-grade NAT'],
    ['169.254.169.254', 'link-local: the cloud metadata service'],
    ['192.0.0.8', 'IETF protocol assignments'],
    ['192.0.2.1', 'documentation'],
    ['198.51.100.1', 'documentation'],
    ['203.0.113.1', 'documentation'],
    ['198.18.0.1', 'benchmarking'],
    ['192.88.99.1', '6to4 relay anycast'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['240.0.0.1', 'reserved'],
    ['255.255.255.255', 'broadcast'],
    ['::1', 'IPv6 loopback'],
    ['::', 'IPv6 unspecified'],
    ['fe80::1', 'IPv6 link-local'],
    ['fe80::1%eth0', 'IPv6 link-local with a zone'],
    ['fc00::1', 'unique-local'],
    ['fd12:3456:789a::1', 'unique-local'],
    ['fec0::1', 'site-local'],
    ['ff02::1', 'IPv6 multicast'],
    ['100::1', 'discard-only'],
    ['2001:db8::1', 'documentation'],
    ['3fff::1', 'documentation'],
    ['2001::1', 'Teredo'],
    ['2001:2::1', 'benchmarking'],
    ['5f00::1', 'SRv6'],
    ['::ffff:127.0.0.1', 'loopback, v4-mapped (dotted)'],
    ['::ffff:7f00:1', 'loopback, v4-mapped (hex, as URL parsing writes it)'],
    ['::ffff:a9fe:a9fe', 'the metadata service, v4-mapped'],
    ['::127.0.0.1', 'loopback, v4-compatible'],
    ['::7f00:1', 'loopback, v4-compatible in hex'],
    ['64:ff9b::7f00:1', 'loopback through NAT64'],
    ['64:ff9b::a00:1', 'private through NAT64'],
    ['64:ff9b:1::a00:1', 'the local-use NAT64 prefix'],
    ['2002:7f00:1::', 'loopback through 6to4'],
    ['2002:c0a8:101::1', 'private through 6to4'],
    ['::ffff:0:7f00:1', 'loopback, IPv4-translated (SIIT)'],
  ])('refuses %s (%s)', (address) => {
    expect(isPublic(address)).toBe(false);
  });
});

describe('parseIp', () => {
  it('reads every IPv6 spelling of an IPv4 address as that address, and keeps the address as given to connect to', () => {
    expect(parseIp('[::ffff:7f00:1]')).toEqual({ family: 4, text: '127.0.0.1', given: '::ffff:7f00:1', givenFamily: 6 });
    expect(parseIp('64:ff9b::8.8.8.8')).toEqual({ family: 4, text: '8.8.8.8', given: '64:ff9b::8.8.8.8', givenFamily: 6 });
    expect(parseIp('2606:4700::1111')).toEqual({ family: 6, text: '2606:4700::1111', given: '2606:4700::1111', givenFamily: 6 });
    expect(parseIp('10.0.0.1')).toEqual({ family: 4, text: '10.0.0.1', given: '10.0.0.1', givenFamily: 4 });
  });

  it('is no address for a name or a spelling net does not read (URL parsing writes those first)', () => {
    for (const text of ['localhost', '2130706433', '0x7f000001', '127.1', '']) expect(parseIp(text), text).toBeUndefined();
  });
});
