import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { decodeSecretsKey } from '../../bff/secrets-key.js';

describe('the site secrets key', () => {
  it('takes SITE_SECRETS_KEY as exactly 32 bytes in base64', () => {
    expect(decodeSecretsKey(randomBytes(32).toString('base64'))?.length).toBe(32);
    expect(decodeSecretsKey(randomBytes(31).toString('base64'))).toBeUndefined();
    expect(decodeSecretsKey(randomBytes(33).toString('base64'))).toBeUndefined();
    expect(decodeSecretsKey('not base64 at all!')).toBeUndefined();
    expect(decodeSecretsKey('')).toBeUndefined();
  });
});
