import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { SITE_SECRETS_KEY_BYTES } from '../secrets-key.js';

/**
 * App secrets at rest (decision 0013): AES-256-GCM under SITE_SECRETS_KEY,
 * a fresh 96-bit nonce for every encryption, and the site id bound as
 * associated data, so a ciphertext copied into another site's row fails its
 * tag instead of handing that site someone else's secret.
 *
 * Stored as base64 of: format (1 byte) | key id (1 byte) | nonce (12) | tag (16) | ciphertext.
 * The key id (the first byte of SHA-256 of the key) says which key sealed it,
 * so during a rotation SITE_SECRETS_KEY_PREVIOUS still opens what it sealed;
 * two keys sharing an id byte are both tried, the tag tells which is right.
 */

const FORMAT = 1;
const NONCE_BYTES = 12;
const TAG_BYTES = 16;
const HEADER_BYTES = 2;

/**
 * Which of a site's secrets it is: its app secret, the secret its webhooks
 * are signed with, its own mail relay's URL (which may hold a password) or
 * its DKIM private key. Bound in the associated data, so none opens as
 * another (a webhook secret copied into the app secret's column is not sent
 * upstream). The app secret's associated data is what it was before there
 * were others, so secrets sealed then still open.
 */
export type SiteSecretPurpose = 'app' | 'webhook' | 'smtp-url' | 'dkim-key';

/** The associated data: what the ciphertext is, for which site, sealed how. */
const associatedData = (siteId: string, keyId: number, purpose: SiteSecretPurpose) =>
  Buffer.from(`clinic-booking site secret v${FORMAT}\0${keyId}\0${siteId}${purpose === 'app' ? '' : `\0${purpose}`}`, 'utf8');

const keyIdOf = (key: Buffer): number => createHash('sha256').update(key).digest()[0]!;

const SECRET_NAMES: Record<SiteSecretPurpose, string> = { app: 'secret', webhook: 'webhook secret', 'smtp-url': 'mail relay URL', 'dkim-key': 'DKIM key' };
const secretName = (purpose: SiteSecretPurpose) => SECRET_NAMES[purpose];

/** A stored secret that no key opens for this site: never says more (no ciphertext, no key, no secret). */
export class SiteSecretError extends Error {}

export class SiteSecrets {
  private readonly current: { key: Buffer; id: number };
  private readonly all: { key: Buffer; id: number }[];

  /** `current` seals; `current` then `previous` open. */
  constructor(current: Buffer, previous?: Buffer) {
    for (const key of [current, previous]) {
      if (key && key.length !== SITE_SECRETS_KEY_BYTES) throw new Error(`a site secrets key is ${SITE_SECRETS_KEY_BYTES} bytes`);
    }
    this.current = { key: current, id: keyIdOf(current) };
    this.all = [this.current, ...(previous ? [{ key: previous, id: keyIdOf(previous) }] : [])];
  }

  /** Seals `secret` for `siteId` under the current key. */
  seal(siteId: string, secret: string, purpose: SiteSecretPurpose = 'app'): string {
    const { key, id } = this.current;
    const nonce = randomBytes(NONCE_BYTES);
    const cipher = createCipheriv('aes-256-gcm', key, nonce, { authTagLength: TAG_BYTES });
    cipher.setAAD(associatedData(siteId, id, purpose));
    const body = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
    return Buffer.concat([Buffer.from([FORMAT, id]), nonce, cipher.getAuthTag(), body]).toString('base64');
  }

  /** Opens what seal() made for this same site id and purpose, with whichever configured key sealed it. */
  open(siteId: string, sealed: string, purpose: SiteSecretPurpose = 'app'): string {
    const bytes = Buffer.from(sealed, 'base64');
    if (bytes.length < HEADER_BYTES + NONCE_BYTES + TAG_BYTES || bytes[0] !== FORMAT) {
      throw new SiteSecretError(`the stored ${secretName(purpose)} of site ${siteId} is not in a format this BFF reads`);
    }
    const opened = openWith(this.all, siteId, bytes, purpose);
    if (opened !== undefined) return opened;
    throw new SiteSecretError(
      `the stored ${secretName(purpose)} of site ${siteId} does not open with SITE_SECRETS_KEY or SITE_SECRETS_KEY_PREVIOUS (another key, or not this site's)`,
    );
  }

  /**
   * True when `sealed` opens under the current key. Its key id byte alone
   * cannot say: two keys share one in 256 (a test of random keys failed
   * that often), so the tag decides.
   */
  isCurrent(siteId: string, sealed: string, purpose: SiteSecretPurpose = 'app'): boolean {
    const bytes = Buffer.from(sealed, 'base64');
    return bytes[0] === FORMAT && openWith([this.current], siteId, bytes, purpose) !== undefined;
  }
}

/** The secret in `bytes` (format checked) opened with the first of `keys` of its key id whose tag verifies; undefined when none. */
function openWith(keys: readonly { key: Buffer; id: number }[], siteId: string, bytes: Buffer, purpose: SiteSecretPurpose): string | undefined {
  const id = bytes[1]!;
  const nonce = bytes.subarray(HEADER_BYTES, HEADER_BYTES + NONCE_BYTES);
  const tag = bytes.subarray(HEADER_BYTES + NONCE_BYTES, HEADER_BYTES + NONCE_BYTES + TAG_BYTES);
  const body = bytes.subarray(HEADER_BYTES + NONCE_BYTES + TAG_BYTES);
  for (const { key } of keys.filter((candidate) => candidate.id === id)) {
    try {
      const decipher = createDecipheriv('aes-256-gcm', key, nonce, { authTagLength: TAG_BYTES });
      decipher.setAAD(associatedData(siteId, id, purpose));
      decipher.setAuthTag(tag);
      return Buffer.concat([decipher.update(body), decipher.final()]).toString('utf8');
    } catch {
      // The tag did not verify under this key: try the next with the same id.
    }
  }
  return undefined;
}
