/**
 * SITE_SECRETS_KEY (and SITE_SECRETS_KEY_PREVIOUS) as the config reads it:
 * beside config.ts, which checks and decodes it, so that the settings depend
 * on nothing of the sites that use the key (sites/site-secrets.ts seals with it).
 */

/** An AES-256 key: 32 bytes. */
export const SITE_SECRETS_KEY_BYTES = 32;

/**
 * Decodes SITE_SECRETS_KEY: base64 of exactly 32 bytes. Returns undefined when
 * the value is not that, so the config can say so in one line without
 * repeating the value.
 */
export function decodeSecretsKey(value: string): Buffer | undefined {
  const trimmed = value.trim();
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(trimmed)) return undefined;
  const key = Buffer.from(trimmed, 'base64');
  return key.length === SITE_SECRETS_KEY_BYTES ? key : undefined;
}
