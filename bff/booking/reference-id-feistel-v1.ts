import { createHmac } from 'node:crypto';

/**
 * The id inside a short reference of format 1, which is read and no longer
 * issued: a 4-round Feistel network over 16-bit halves with HMAC-SHA-256 round
 * functions. Patients keep such references, so this stays exactly as it was;
 * new references use FF1 (reference-id-ff1.ts).
 */
const FEISTEL_ROUNDS = 4;

/** The 16-bit round function: HMAC-SHA-256 of the round number and the half. */
function round(feistelKey: Buffer, index: number, half: number): number {
  return createHmac('sha256', feistelKey).update(Buffer.from([index, half >>> 8, half & 0xff])).digest().readUInt16BE(0);
}

/** The id a 32-bit ciphertext of format 1 holds: the rounds run backwards. */
export function decryptIdFeistelV1(cipher: number, feistelKey: Buffer): number {
  let left = cipher >>> 16;
  let right = cipher & 0xffff;
  for (let i = FEISTEL_ROUNDS - 1; i >= 0; i--) [left, right] = [right ^ round(feistelKey, i, left), left];
  return ((left << 16) | right) >>> 0;
}
