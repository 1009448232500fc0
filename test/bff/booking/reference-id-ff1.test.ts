import { FF1 } from '@noble/ciphers/ff1.js';
import { describe, expect, it } from 'vitest';
import { decryptIdFf1, encryptIdFf1 } from '../../../bff/booking/reference-id-ff1.js';

/**
 * The id inside a booking reference is encrypted with FF1 (NIST SP 800-38G).
 * The library call the BFF makes is checked against NIST's published FF1
 * samples (csrc.nist.gov, "FF1samples.pdf": AES-128 samples 1 and 3, AES-256
 * samples 7 to 9), so it is the standard cipher and not merely one that reads
 * back what it wrote.
 */
const hex = (text: string) => Uint8Array.from(Buffer.from(text, 'hex'));
const KEY_128 = hex('2B7E151628AED2A6ABF7158809CF4F3C');
const KEY_256 = hex('2B7E151628AED2A6ABF7158809CF4F3CEF4359D8D580AA4F7F036D6F04FC6A94');
const TWEAK_SAMPLE_2 = hex('39383736353433323130');
const TWEAK_SAMPLE_3 = hex('3737373770717273373737');
const digits = (text: string) => [...text].map((symbol) => parseInt(symbol, 36));
const text = (numerals: number[]) => numerals.map((numeral) => numeral.toString(36)).join('');

describe('FF1 of @noble/ciphers', () => {
  it.each([
    ['sample 1 (AES-128, radix 10, no tweak)', KEY_128, 10, undefined, '0123456789', '2433477484'],
    ['sample 3 (AES-128, radix 36, with a tweak)', KEY_128, 36, TWEAK_SAMPLE_3, '0123456789abcdefghi', 'a9tv40mll9kdu509eum'],
    ['sample 7 (AES-256, radix 10, no tweak)', KEY_256, 10, undefined, '0123456789', '6657667009'],
    ['sample 8 (AES-256, radix 10, with a tweak)', KEY_256, 10, TWEAK_SAMPLE_2, '0123456789', '1001623463'],
    ['sample 9 (AES-256, radix 36, with a tweak)', KEY_256, 36, TWEAK_SAMPLE_3, '0123456789abcdefghi', 'xs8a0azh2avyalyzuwd'],
  ])('gives NIST SP 800-38G %s', (_sample, key, radix, tweak, plain, cipher) => {
    const ff1 = FF1(radix, key, tweak);

    expect(text(ff1.encrypt(digits(plain)))).toBe(cipher);
    expect(text(ff1.decrypt(digits(cipher)))).toBe(plain);
  });
});

describe('the id of a reference under FF1', () => {
  it('is FF1 at radix 16 over the id as 8 hexadecimal digits, most significant first', () => {
    const id = 0x0123abcd;

    const cipher = encryptIdFf1(id, KEY_256);

    expect(cipher.toString(16).padStart(8, '0')).toBe(text(FF1(16, KEY_256).encrypt(digits('0123abcd'))));
    expect(cipher).toBe(0xec53fd8e);
  });

  it('reads back every id, from 0 to 2^32 - 1, and stays within 32 bits', () => {
    for (const id of [0, 1, 2, 255, 65_536, 2 ** 31, 2 ** 32 - 1]) {
      const cipher = encryptIdFf1(id, KEY_256);

      expect(cipher).toBeGreaterThanOrEqual(0);
      expect(cipher).toBeLessThan(2 ** 32);
      expect(decryptIdFf1(cipher, KEY_256)).toBe(id);
    }
  });

  it('gives consecutive ids unrelated ciphertexts, and another key another one', () => {
    const ciphers = [1, 2, 3].map((id) => encryptIdFf1(id, KEY_256));

    expect(new Set(ciphers).size).toBe(3);
    expect(Math.abs(ciphers[1]! - ciphers[0]!)).toBeGreaterThan(1);
    expect(encryptIdFf1(1, KEY_128)).not.toBe(ciphers[0]);
  });
});
