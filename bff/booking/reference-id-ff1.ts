import { FF1 } from '@noble/ciphers/ff1.js';

/**
 * The id inside a short reference of format 2: FF1, the format-preserving
 * cipher of NIST SP 800-38G (AES-256 under `ff1Key`, no tweak), over the id
 * written as 8 hexadecimal digits. 16^8 is exactly the 2^32 ids the short
 * format holds, and well above the 1,000,000 values SP 800-38G asks of a
 * domain. A standard, analysed cipher in place of a home-made permutation.
 */
const RADIX = 16;
const DIGITS = 8;

const toDigits = (value: number) => Array.from({ length: DIGITS }, (_, i) => (value >>> (4 * (DIGITS - 1 - i))) & 0xf);
const fromDigits = (digits: number[]) => digits.reduce((value, digit) => value * RADIX + digit, 0);

/** The 32-bit ciphertext of an id below 2^32. */
export function encryptIdFf1(id: number, ff1Key: Uint8Array): number {
  return fromDigits(FF1(RADIX, ff1Key).encrypt(toDigits(id)));
}

/** The id a 32-bit ciphertext of encryptIdFf1 holds. */
export function decryptIdFf1(cipher: number, ff1Key: Uint8Array): number {
  return fromDigits(FF1(RADIX, ff1Key).decrypt(toDigits(cipher)));
}
