import { randomBytes, scrypt as scryptCallback, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/** The cost of a scrypt hash: its N (CPU and memory), r (block size) and p (parallelism). */
export interface SecretHashCost {
  readonly N: number;
  readonly r: number;
  readonly p: number;
}

/** What new keys are hashed at: N=2^15, r=8, p=1 (OWASP's minimum for scrypt), 32-byte salt and key. */
export const SECRET_HASH_COST: SecretHashCost = { N: 2 ** 15, r: 8, p: 1 };
const KEY_LENGTH = 32;

function scrypt(secret: string, salt: Buffer, params: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const maxmem = 256 * (params.N ?? SECRET_HASH_COST.N) * (params.r ?? SECRET_HASH_COST.r) + 1024 * 1024;
    scryptCallback(secret, salt, KEY_LENGTH, { ...params, maxmem }, (error, key) =>
      error ? reject(error) : resolve(key),
    );
  });
}

/**
 * Hashes a secret for storage as `scrypt$N$r$p$salt$hash` (base64url parts),
 * at `cost`: the server's is always SECRET_HASH_COST; a test's seed may pass
 * a cheaper one, since a secret is checked at the cost its hash names.
 */
export async function hashSecret(secret: string, cost: SecretHashCost = SECRET_HASH_COST): Promise<string> {
  const salt = randomBytes(32);
  const key = await scrypt(secret, salt, cost);
  return ['scrypt', cost.N, cost.r, cost.p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

/** Checks a secret against a stored hash in constant time; a malformed hash never matches. */
export async function verifySecret(secret: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !n || !r || !p || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64url');
  const actual = await scrypt(secret, Buffer.from(salt, 'base64url'), { N: Number(n), r: Number(r), p: Number(p) });
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}

let decoyHash: Promise<string> | undefined;

/**
 * A hash to check against when the app key is unknown, so an unknown key
 * costs the same scrypt work as a known one and timing reveals nothing.
 */
export function decoySecretHash(): Promise<string> {
  decoyHash ??= hashSecret(randomBytes(32).toString('base64url'));
  return decoyHash;
}
