import { randomBytes } from 'node:crypto';

/** RFC 4648 base32, lower case: no 0/1/8/9, so an id read aloud or copied by hand is hard to get wrong. */
const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567';

/** What every site id starts with, so one found in a page or a log says what it is. */
export const SITE_ID_PREFIX = 'cbs_';

/** 128 random bits are 26 base32 characters (the last holds 3 bits and two zero bits of padding). */
const SITE_ID_CHARS = 26;

/** A site id: the prefix and 26 base32 characters whose final one carries only three bits (a, e, i, m, q, u, y, 4). */
export const SITE_ID_PATTERN = /^cbs_[a-z2-7]{25}[aeimquy4]$/;

/** RFC 4648 base32 of `bytes`, lower case, without padding. */
export function base32(bytes: Uint8Array): string {
  let out = '';
  let bits = 0;
  let value = 0;
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
    value &= (1 << bits) - 1;
  }
  if (bits > 0) out += BASE32[(value << (5 - bits)) & 31];
  return out;
}

/**
 * A new public site id: `cbs_` and 128 bits from the system's CSPRNG. Random,
 * not the clinic's name nor a counter, so ids cannot be guessed or listed
 * from one another, and say nothing about who the clinic is.
 */
export function newSiteId(): string {
  const id = SITE_ID_PREFIX + base32(randomBytes(16));
  if (id.length !== SITE_ID_PREFIX.length + SITE_ID_CHARS) throw new Error('site id of the wrong length');
  return id;
}

/** True for a string shaped as newSiteId makes them. */
export const isSiteId = (value: string): boolean => SITE_ID_PATTERN.test(value);
