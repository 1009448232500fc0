import { createCipheriv, createDecipheriv, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

const IV_BYTES = 16;
const ID_BYTES = 8;
const MAC_BYTES = 16;
const REFERENCE_LENGTH = Math.ceil(((IV_BYTES + ID_BYTES + MAC_BYTES) * 4) / 3);
const SHAPE = new RegExp(`^[A-Za-z0-9_-]{${REFERENCE_LENGTH}}$`);

/**
 * Booking references stand in for the upstream's sequential appointment_id in
 * public URLs. The id is encrypted (AES-256-CTR, random IV) so a reference
 * reveals nothing, then HMAC-SHA-256 signed so none can be forged or altered:
 * encrypt-then-MAC. `key` is 64 bytes: 32 for AES, 32 for HMAC.
 */
export function createReference(appointmentId: number, key: Buffer): string {
  const iv = randomBytes(IV_BYTES);
  const plain = Buffer.alloc(ID_BYTES);
  plain.writeBigUInt64BE(BigInt(appointmentId));
  const cipher = createCipheriv('aes-256-ctr', key.subarray(0, 32), iv);
  const sealed = Buffer.concat([cipher.update(plain), cipher.final()]);
  return Buffer.concat([iv, sealed, mac(key, iv, sealed)]).toString('base64url');
}

/** The appointment id of a genuine reference; undefined for anything tampered or made up. */
export function readReference(reference: string, key: Buffer): number | undefined {
  if (!SHAPE.test(reference)) return undefined;
  const bytes = Buffer.from(reference, 'base64url');
  // The last character carries 4 spare bits the decoder ignores; only the one
  // canonical spelling of a reference is accepted, so no variant of it works.
  if (bytes.toString('base64url') !== reference) return undefined;
  const iv = bytes.subarray(0, IV_BYTES);
  const sealed = bytes.subarray(IV_BYTES, IV_BYTES + ID_BYTES);
  const signature = bytes.subarray(IV_BYTES + ID_BYTES);
  if (signature.length !== MAC_BYTES || !timingSafeEqual(signature, mac(key, iv, sealed))) return undefined;
  const decipher = createDecipheriv('aes-256-ctr', key.subarray(0, 32), iv);
  const id = Number(Buffer.concat([decipher.update(sealed), decipher.final()]).readBigUInt64BE());
  return Number.isSafeInteger(id) && id > 0 ? id : undefined;
}

function mac(key: Buffer, iv: Buffer, sealed: Buffer): Buffer {
  return createHmac('sha256', key.subarray(32)).update('booking-reference-v1').update(iv).update(sealed).digest().subarray(0, MAC_BYTES);
}
