import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { SiteSecretError, SiteSecrets } from '../../../bff/sites/site-secrets.js';
import { newSiteId } from '../../../bff/sites/site-id.js';

const SECRET = 'ck_secret_0f1e2d3c4b5a69788796a5b4c3d2e1f0';
const key = () => randomBytes(32);

describe('site secrets', () => {
  it('opens what it sealed for the same site, and never holds the secret in plain text', () => {
    const secrets = new SiteSecrets(key());
    const site = newSiteId();

    const sealed = secrets.seal(site, SECRET);

    expect(secrets.open(site, sealed)).toBe(SECRET);
    expect(Buffer.from(sealed, 'base64').includes(Buffer.from(SECRET))).toBe(false);
    expect(sealed).not.toContain(SECRET);
  });

  it('seals with a fresh nonce each time: the same secret twice gives two ciphertexts', () => {
    const secrets = new SiteSecrets(key());
    const site = newSiteId();

    const first = Buffer.from(secrets.seal(site, SECRET), 'base64');
    const second = Buffer.from(secrets.seal(site, SECRET), 'base64');

    expect(first.subarray(2, 14).equals(second.subarray(2, 14))).toBe(false);
    expect(first.equals(second)).toBe(false);
  });

  it('refuses a ciphertext sealed for another site, without saying the secret', () => {
    const secrets = new SiteSecrets(key());
    const [mine, theirs] = [newSiteId(), newSiteId()];
    const sealed = secrets.seal(theirs, SECRET);

    expect(() => secrets.open(mine, sealed)).toThrow(SiteSecretError);
    try {
      secrets.open(mine, sealed);
    } catch (error) {
      expect((error as Error).message).not.toContain(SECRET);
      expect((error as Error).message).not.toContain(sealed);
    }
  });

  it('refuses a ciphertext changed by one bit', () => {
    const secrets = new SiteSecrets(key());
    const site = newSiteId();
    const bytes = Buffer.from(secrets.seal(site, SECRET), 'base64');
    bytes[bytes.length - 1]! ^= 1;

    expect(() => secrets.open(site, bytes.toString('base64'))).toThrow(SiteSecretError);
  });

  it('tells a secret of a previous key that shares the current key\'s id byte from a current one (1 pair in 256 does)', () => {
    const idByte = (candidate: Buffer) => Buffer.from(new SiteSecrets(candidate).seal('cbs_x', 'x'), 'base64')[1];
    const older = key();
    let newer = key();
    while (idByte(newer) !== idByte(older)) newer = key();
    const site = newSiteId();
    const rotating = new SiteSecrets(newer, older);

    expect(rotating.isCurrent(site, new SiteSecrets(older).seal(site, SECRET))).toBe(false);
    expect(rotating.open(site, new SiteSecrets(older).seal(site, SECRET))).toBe(SECRET);
    expect(rotating.isCurrent(site, rotating.seal(site, SECRET))).toBe(true);
  });

  it('opens with the previous key during a rotation, and seals only with the current one', () => {
    const [older, newer] = [key(), key()];
    const site = newSiteId();
    const sealedBefore = new SiteSecrets(older).seal(site, SECRET);
    const rotating = new SiteSecrets(newer, older);

    expect(rotating.open(site, sealedBefore)).toBe(SECRET);
    expect(rotating.isCurrent(site, sealedBefore)).toBe(false);
    const sealedAgain = rotating.seal(site, SECRET);
    expect(rotating.isCurrent(site, sealedAgain)).toBe(true);
    expect(new SiteSecrets(newer).open(site, sealedAgain)).toBe(SECRET);
    expect(() => new SiteSecrets(newer).open(site, sealedBefore)).toThrow(SiteSecretError);
    expect(() => new SiteSecrets(older).open(site, sealedAgain)).toThrow(SiteSecretError);
  });
});
