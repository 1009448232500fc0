import { hash, randomBytes } from 'node:crypto';

/** A new public application key: `ck_` and 128 random bits. */
export const newAppKey = () => `ck_${randomBytes(16).toString('hex')}`;

/** A new secret key: `cs_` and 256 random bits; shown once, stored only as a scrypt hash. */
export const newAppSecret = () => `cs_${randomBytes(32).toString('base64url')}`;

/** A new access token: 256 random bits; stored only as its SHA-256. */
export const newAccessToken = () => randomBytes(32).toString('base64url');

/**
 * Tokens are high-entropy, so one SHA-256 is enough to make a stolen table
 * useless. Asked on every authenticated request: Node's one-shot hash, not a
 * createHash object per call.
 */
export const hashToken = (token: string) => hash('sha256', token, 'base64url');
