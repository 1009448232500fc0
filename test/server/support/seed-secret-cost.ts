import type { SecretHashCost } from '../../../server/auth/secret-hash.js';

/**
 * What the keys tests seed are hashed at: N=2^10 instead of the server's
 * 2^15. POST /granttoken checks a secret at the cost its stored hash names
 * (test/server/auth/secret-hash.test.ts), so every request takes the
 * server's own path; only the seeds are cheaper. At 2^15 a hash or check is
 * about 130 ms of one core, and hashing and checking the seeds' secrets was
 * more than half of the server suites' CPU (test/server/auth, treatments and
 * appointments on SQLite: 16.3 s at 2^15, 6.8 s at 2^10). Keys made by the
 * server itself (its CLI, seed-demo) keep its cost. A test server checks
 * secrets at this cost too (its SecretHasher), so that an unknown key's
 * decoy costs there what a seeded key's check does, as in production.
 */
export const SEED_SECRET_COST: SecretHashCost = { N: 2 ** 10, r: 8, p: 1 };
