import { isIP } from 'node:net';

/**
 * An IP address in one canonical spelling, so that every rule about
 * addresses compares like with like: an IPv4 address as a dotted quad, an
 * IPv6 address as its eight 16-bit groups. Spellings that carry an IPv4
 * address inside IPv6 (v4-mapped `::ffff:a.b.c.d`, v4-compatible `::a.b.c.d`,
 * NAT64 `64:ff9b::a.b.c.d`, 6to4 `2002:AABB:CCDD::`) are read as that IPv4
 * address, since that is where a connection to them ends up.
 */
export interface IpAddress {
  /** The family rules judge it by: 4 for every form that carries an IPv4 address. */
  family: 4 | 6;
  /** As rules judge it: a dotted quad for those forms, else the address as given. */
  text: string;
  /** The address as given (no brackets, no zone id): where a connection to it goes. */
  given: string;
  givenFamily: 4 | 6;
}

/** The address `text` names (brackets and a zone id allowed), or undefined when it is no IP address. */
export function parseIp(text: string): IpAddress | undefined {
  const bare = text.replace(/^\[(.*)\]$/, '$1').replace(/%.*$/, '');
  const family = isIP(bare);
  if (family === 4) return { family: 4, text: bare, given: bare, givenFamily: 4 };
  if (family !== 6) return undefined;
  const inner = embeddedIpv4(ipv6Groups(bare));
  return { family: inner ? 4 : 6, text: inner ?? bare, given: bare, givenFamily: 6 };
}

/** The eight groups of a valid IPv6 address (net.isIPv6), a dotted IPv4 tail included. */
function ipv6Groups(address: string): number[] {
  const dotted = /^(.*:)(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(address);
  const hex = dotted
    ? `${dotted[1]}${((Number(dotted[2]) << 8) | Number(dotted[3])).toString(16)}:${((Number(dotted[4]) << 8) | Number(dotted[5])).toString(16)}`
    : address;
  const [head = '', tail] = hex.split('::');
  const parts = (run: string) => (run ? run.split(':').map((group) => parseInt(group, 16)) : []);
  const front = parts(head);
  const back = tail === undefined ? [] : parts(tail);
  return [...front, ...new Array<number>(8 - front.length - back.length).fill(0), ...back];
}

/** The IPv4 address an IPv6 address stands for, in the forms that carry one; undefined for any other. */
function embeddedIpv4(groups: number[]): string | undefined {
  const quad = (high: number, low: number) => `${high >> 8}.${high & 0xff}.${low >> 8}.${low & 0xff}`;
  const zero = (from: number, to: number) => groups.slice(from, to).every((group) => group === 0);
  // ::ffff:a.b.c.d (v4-mapped) and ::a.b.c.d (v4-compatible, which also covers :: and ::1 as 0.0.0.0 and 0.0.0.1).
  if (zero(0, 5) && (groups[5] === 0xffff || groups[5] === 0)) return quad(groups[6]!, groups[7]!);
  // 64:ff9b::a.b.c.d: the well-known NAT64 prefix, which a NAT64 gateway turns into a.b.c.d.
  if (groups[0] === 0x64 && groups[1] === 0xff9b && zero(2, 6)) return quad(groups[6]!, groups[7]!);
  // 2002:AABB:CCDD::/48: 6to4, relayed to AA.BB.CC.DD.
  if (groups[0] === 0x2002) return quad(groups[1]!, groups[2]!);
  return undefined;
}
