import { createCipheriv, createDecipheriv, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import {
  formatReference,
  LEGACY_REFERENCE_PATTERN,
  normaliseReference,
  REFERENCE_ALPHABET,
  REFERENCE_SYMBOLS,
} from '../../contract/rules/bff-api.js';
import { decryptIdFeistelV1 } from './reference-id-feistel-v1.js';
import { decryptIdFf1, encryptIdFf1 } from './reference-id-ff1.js';

/**
 * Booking references stand in for the upstream's sequential appointment_id.
 * `key` is 64 bytes (deriveReferenceKey). Two formats:
 *
 * Short (issued for ids below 2^32): 20 Crockford base32 symbols, 100 bits:
 * a 4-bit format marker, the id encrypted to 32 bits, and a 64-bit MAC
 * (HMAC-SHA-256 over marker and ciphertext, truncated). The marker says how the
 * id was encrypted: 2 (issued now) with FF1, the format-preserving cipher of
 * NIST SP 800-38G (reference-id-ff1.ts); 1 (issued before, read only) with a
 * 4-round Feistel network (reference-id-feistel-v1.ts). Opaque: without the
 * key the ciphertext says nothing of the id. Unforgeable: a guess is right with
 * probability 2^-64, and status lookups are rate-limited per IP. Deterministic:
 * the same booking always has the same reference (100 bits leave no room for a
 * random nonce beside a 64-bit MAC; nothing is lost, since the reference only
 * ever names its booking).
 *
 * Legacy (ids of 2^32 and above, and every reference issued before the short
 * format): AES-256-CTR under a random IV, then HMAC-SHA-256 (encrypt-then-MAC),
 * 54 base64url characters. All are read; none can be turned into another.
 */

/** The 4-bit markers of the short format; the other values are free for later formats. */
const SHORT_V1_FEISTEL = 0b0001;
const SHORT_V2_FF1 = 0b0010;
const SHORT_MAC_BITS = 64n;
const SHORT_ID_LIMIT = 2 ** 32;

const subkey = (key: Buffer, purpose: string) => createHmac('sha256', key).update(purpose).digest();

const ff1Key = (key: Buffer) => subkey(key, 'booking-reference-short-ff1');

/** How each short format's id is decrypted, by its marker; a marker not listed names nothing. */
const SHORT_ID_DECRYPTION = new Map<number, (cipher: number, key: Buffer) => number>([
  [SHORT_V2_FF1, (cipher, key) => decryptIdFf1(cipher, ff1Key(key))],
  [SHORT_V1_FEISTEL, (cipher, key) => decryptIdFeistelV1(cipher, subkey(key, 'booking-reference-short-feistel'))],
]);

function shortMac(key: Buffer, marker: number, cipher: number): bigint {
  const message = Buffer.alloc(5);
  message.writeUInt8(marker, 0);
  message.writeUInt32BE(cipher, 1);
  return createHmac('sha256', subkey(key, 'booking-reference-short-mac')).update(message).digest().readBigUInt64BE(0);
}

function toSymbols(value: bigint): string {
  let symbols = '';
  for (let i = 0; i < REFERENCE_SYMBOLS; i++) {
    symbols = REFERENCE_ALPHABET[Number(value & 31n)]! + symbols;
    value >>= 5n;
  }
  return symbols;
}

function fromSymbols(symbols: string): bigint | undefined {
  if (symbols.length !== REFERENCE_SYMBOLS) return undefined;
  let value = 0n;
  for (const symbol of symbols) {
    const digit = REFERENCE_ALPHABET.indexOf(symbol);
    if (digit < 0) return undefined;
    value = (value << 5n) | BigInt(digit);
  }
  return value;
}

/** The reference a patient keeps for an appointment: the short form when the id fits 32 bits, else the legacy one. */
export function createReference(appointmentId: number, key: Buffer): string {
  if (appointmentId >= SHORT_ID_LIMIT) return createLegacyReference(appointmentId, key);
  const cipher = encryptIdFf1(appointmentId, ff1Key(key));
  const value = (BigInt(SHORT_V2_FF1) << 96n) | (BigInt(cipher) << SHORT_MAC_BITS) | shortMac(key, SHORT_V2_FF1, cipher);
  return formatReference(toSymbols(value));
}

/**
 * The appointment id of a reference made with any of `keys` (the current key
 * first, then the previous ones BOOKING_REF_SECRET_PREVIOUS keeps readable);
 * undefined when none of them made it.
 */
export function readReferenceWithAny(reference: string, keys: readonly Buffer[]): number | undefined {
  for (const key of keys) {
    const id = readReference(reference, key);
    if (id !== undefined) return id;
  }
  return undefined;
}

/**
 * The appointment id of a genuine reference, in any format issued so far and in any
 * spelling normaliseReference accepts; undefined for anything tampered or made up.
 */
export function readReference(reference: string, key: Buffer): number | undefined {
  const normalised = normaliseReference(reference);
  if (LEGACY_REFERENCE_PATTERN.test(normalised)) return readLegacyReference(normalised, key);
  const value = fromSymbols(normalised);
  if (value === undefined) return undefined;
  const marker = Number(value >> 96n);
  const decryptId = SHORT_ID_DECRYPTION.get(marker);
  if (decryptId === undefined) return undefined;
  const cipher = Number((value >> SHORT_MAC_BITS) & 0xffffffffn);
  const mac = Buffer.alloc(8);
  mac.writeBigUInt64BE(value & ((1n << SHORT_MAC_BITS) - 1n));
  const expected = Buffer.alloc(8);
  expected.writeBigUInt64BE(shortMac(key, marker, cipher));
  if (!timingSafeEqual(mac, expected)) return undefined;
  const id = decryptId(cipher, key);
  return id > 0 ? id : undefined;
}

const IV_BYTES = 16;
const ID_BYTES = 8;
const MAC_BYTES = 16;

/** The legacy 54-character form: AES-256-CTR under a random IV, then HMAC-SHA-256 (32 bytes for AES, 32 for HMAC). */
export function createLegacyReference(appointmentId: number, key: Buffer): string {
  const iv = randomBytes(IV_BYTES);
  const plain = Buffer.alloc(ID_BYTES);
  plain.writeBigUInt64BE(BigInt(appointmentId));
  const cipher = createCipheriv('aes-256-ctr', key.subarray(0, 32), iv);
  const sealed = Buffer.concat([cipher.update(plain), cipher.final()]);
  return Buffer.concat([iv, sealed, legacyMac(key, iv, sealed)]).toString('base64url');
}

function readLegacyReference(reference: string, key: Buffer): number | undefined {
  const bytes = Buffer.from(reference, 'base64url');
  // The last character carries 4 spare bits the decoder ignores; only the one
  // canonical spelling of a reference is accepted, so no variant of it works.
  if (bytes.toString('base64url') !== reference) return undefined;
  const iv = bytes.subarray(0, IV_BYTES);
  const sealed = bytes.subarray(IV_BYTES, IV_BYTES + ID_BYTES);
  const signature = bytes.subarray(IV_BYTES + ID_BYTES);
  if (signature.length !== MAC_BYTES || !timingSafeEqual(signature, legacyMac(key, iv, sealed))) return undefined;
  const decipher = createDecipheriv('aes-256-ctr', key.subarray(0, 32), iv);
  const id = Number(Buffer.concat([decipher.update(sealed), decipher.final()]).readBigUInt64BE());
  return Number.isSafeInteger(id) && id > 0 ? id : undefined;
}

function legacyMac(key: Buffer, iv: Buffer, sealed: Buffer): Buffer {
  return createHmac('sha256', key.subarray(32)).update('booking-reference-v1').update(iv).update(sealed).digest().subarray(0, MAC_BYTES);
}
