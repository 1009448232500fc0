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

/**
 * How the server hashes and checks app secrets: at one cost for the keys it
 * makes and for the decoy an unknown key is checked against, so that a
 * failed exchange costs the same scrypt work whether or not the key exists
 * and its timing tells nothing. The server's is at SECRET_HASH_COST; a test
 * server is given its seeds' cost, so that there too an unknown key costs
 * what a known one does.
 */
export class SecretHasher {
  #decoy?: Promise<string>;

  constructor(readonly cost: SecretHashCost = SECRET_HASH_COST) {}

  /** A new secret's hash, for storage (hashSecret at this cost). */
  hash(secret: string): Promise<string> {
    return hashSecret(secret, this.cost);
  }

  /**
   * Makes the decoy now rather than at the first unknown key, which would
   * otherwise be the one exchange that pays for two hashes. The server calls
   * it as it is built; the CLI, which checks no secret, never makes one.
   */
  prepare(): this {
    this.decoy().catch(() => undefined);
    return this;
  }

  /**
   * Whether `secret` is the one `storedHash` was made from. For an unknown
   * key (no stored hash) it is checked against the decoy all the same, one
   * verify() either way, and never matches.
   */
  async matches(secret: string, storedHash: string | undefined): Promise<boolean> {
    const matches = await this.verify(secret, storedHash ?? (await this.decoy()));
    return storedHash !== undefined && matches;
  }

  /** One scrypt derivation at the cost `storedHash` names (verifySecret): the work every check does once. */
  verify(secret: string, storedHash: string): Promise<boolean> {
    return verifySecret(secret, storedHash);
  }

  private decoy(): Promise<string> {
    this.#decoy ??= this.hash(randomBytes(32).toString('base64url'));
    return this.#decoy;
  }
}
