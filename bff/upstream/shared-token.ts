import { createCipheriv, createDecipheriv, createHash, createHmac, hkdfSync, randomBytes } from 'node:crypto';
import type { RedisLink } from '../../platform/redis-link.js';

/** A token another instance (or this one) stored, and how long it is still good for here. */
export interface SharedToken {
  value: string;
  /** Redis's PTTL of the stored token: the holder's time until renewal. */
  remainingMs: number;
}

/** Whether this instance may exchange: it holds the lock, another instance does, or Redis cannot say. */
export type LockOutcome = 'acquired' | 'held-elsewhere' | 'no-redis';

const NONCE_BYTES = 12;
const TAG_BYTES = 16;

/** GET and PTTL in one round trip: the value and how long it still lives. */
const READ = `local value = redis.call('GET', KEYS[1])
if not value then return false end
return {value, redis.call('PTTL', KEYS[1])}`;

/** Deletes KEYS[1] only while it still starts with ARGV[1]: a lock still ours, a token still the refused one. */
const DELETE_IF_PREFIXED = `local value = redis.call('GET', KEYS[1])
if value and string.sub(value, 1, string.len(ARGV[1])) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0`;

/**
 * One upstream token shared by every BFF instance of a site through Redis
 * (REDIS_URL), so two instances with the same site do one exchange,
 * not two. Two keys, both under a hash of the upstream URL and app key (never
 * the key itself):
 *
 * - `…:lock`: SET NX PX by the instance that exchanges; the others wait for
 *   the token. It expires by itself after `lockTtlMs`, so a holder that died
 *   blocks no one longer than that.
 * - `…:token`: the token, sealed with AES-256-GCM under a key derived (HKDF)
 *   from the site's app secret, so Redis never holds a usable token for anyone
 *   without that secret. It lives until the holder would renew it (PX). It is
 *   prefixed with an HMAC fingerprint of the token, so an instance that was
 *   refused the token deletes exactly that one and never a newer one, without
 *   Redis seeing the token.
 *
 * Every method treats Redis being down as "nothing shared": the caller then
 * exchanges on its own, as a single instance does.
 */
export class SharedTokenStore {
  private readonly tokenKey: string;
  private readonly lockKey: string;
  private readonly sealKey: Buffer;
  private readonly fingerprintKey: Buffer;
  private readonly associatedData: Buffer;
  /** Who this instance is as a lock holder: only it may release its lock. */
  private readonly owner = randomBytes(16).toString('hex');

  constructor(
    private readonly redis: RedisLink,
    site: { upstreamUrl: string; appKey: string; appSecretKey: string },
    /** How long a lock holds at most: the exchange's own timeout and a margin. */
    readonly lockTtlMs: number,
  ) {
    const namespace = createHash('sha256').update(`${site.upstreamUrl}\n${site.appKey}`).digest('hex').slice(0, 32);
    this.tokenKey = `${redis.keyPrefix}bff:token:${namespace}:token`;
    this.lockKey = `${redis.keyPrefix}bff:token:${namespace}:lock`;
    this.sealKey = Buffer.from(hkdfSync('sha256', site.appSecretKey, namespace, 'bff-shared-token-seal-v1', 32));
    this.fingerprintKey = Buffer.from(hkdfSync('sha256', site.appSecretKey, namespace, 'bff-shared-token-fingerprint-v1', 32));
    this.associatedData = Buffer.from(`clinic-booking shared upstream token v1\0${namespace}`, 'utf8');
  }

  /** The stored token, unless there is none, Redis is down, or it does not open (another secret sealed it). */
  async read(): Promise<SharedToken | undefined> {
    const answer = await this.redis.sendOr<[string, number] | null, undefined>(['EVAL', READ, '1', this.tokenKey], undefined);
    if (!answer) return undefined;
    const [stored, remainingMs] = answer;
    const value = this.open(stored);
    return value === undefined || remainingMs <= 0 ? undefined : { value, remainingMs };
  }

  /** Stores the token this instance got, for `lifetimeMs` (until it would renew it). */
  async write(token: string, lifetimeMs: number): Promise<void> {
    const ms = Math.floor(lifetimeMs);
    if (ms <= 0) return;
    await this.redis.sendOr(['SET', this.tokenKey, this.seal(token), 'PX', String(ms)], undefined);
  }

  /** Deletes the stored token if it is `refused` (a newer one stays). */
  async forget(refused: string): Promise<void> {
    await this.redis.sendOr(['EVAL', DELETE_IF_PREFIXED, '1', this.tokenKey, `${this.fingerprint(refused)}.`], undefined);
  }

  async lock(): Promise<LockOutcome> {
    const answer = await this.redis.sendOr<string | null, 'no-redis'>(['SET', this.lockKey, this.owner, 'NX', 'PX', String(this.lockTtlMs)], 'no-redis');
    if (answer === 'no-redis') return 'no-redis';
    return answer === 'OK' ? 'acquired' : 'held-elsewhere';
  }

  /** Releases the lock if this instance still holds it (it may have expired and passed to another). */
  async unlock(): Promise<void> {
    await this.redis.sendOr(['EVAL', DELETE_IF_PREFIXED, '1', this.lockKey, this.owner], undefined);
  }

  /** fingerprint "." base64(nonce | tag | ciphertext). */
  private seal(token: string): string {
    const nonce = randomBytes(NONCE_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.sealKey, nonce, { authTagLength: TAG_BYTES });
    cipher.setAAD(this.associatedData);
    const body = Buffer.concat([cipher.update(token, 'utf8'), cipher.final()]);
    return `${this.fingerprint(token)}.${Buffer.concat([nonce, cipher.getAuthTag(), body]).toString('base64')}`;
  }

  private open(stored: string): string | undefined {
    const bytes = Buffer.from(stored.slice(stored.indexOf('.') + 1), 'base64');
    if (bytes.length <= NONCE_BYTES + TAG_BYTES) return undefined;
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.sealKey, bytes.subarray(0, NONCE_BYTES), { authTagLength: TAG_BYTES });
      decipher.setAAD(this.associatedData);
      decipher.setAuthTag(bytes.subarray(NONCE_BYTES, NONCE_BYTES + TAG_BYTES));
      return Buffer.concat([decipher.update(bytes.subarray(NONCE_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
    } catch {
      return undefined;
    }
  }

  private fingerprint(token: string): string {
    return createHmac('sha256', this.fingerprintKey).update(token).digest('hex').slice(0, 32);
  }
}
