import type { AccessTokenResponse } from '../../contract/index.js';
import { TOKEN_LIFETIME_SECONDS } from '../../contract/index.js';
import type { Clock } from '../../platform/clock.js';
import { authFailed } from '../../contract/errors.js';
import { hashToken, newAccessToken, newAppKey, newAppSecret } from './credentials.js';
import type { KeyStore } from './key.store.js';
import { SecretHasher } from './secret-hash.js';
import type { TokenOwner, TokenStore } from './token.store.js';

/**
 * Live tokens one app key may hold at once. A BFF instance holds one at a time
 * (two while it renews), so this leaves room for many instances of a clinic's
 * BFF, while a key whose secret leaked cannot pile up tokens: past it, each
 * new token revokes the oldest.
 */
export const MAX_LIVE_TOKENS_PER_KEY = 20;

/** A new key pair as `clinic keys create` prints it: the secret is shown this once and stored only hashed. */
export interface ApiKeyPair {
  app_key: string;
  app_secret_key: string;
}

/** Spec part 5: key pairs, the token exchange and the check of every later request. */
export class AuthService {
  constructor(
    private readonly keys: KeyStore,
    private readonly tokens: TokenStore,
    private readonly clock: Clock,
    /** How secrets are hashed and checked: at SECRET_HASH_COST; only tests pass another cost (see SecretHasher). */
    private readonly secrets: SecretHasher = new SecretHasher(),
  ) {}

  /** Creates a key pair for a clinic; the secret is returned once and stored only hashed. */
  async createKeyPair(careId: number): Promise<ApiKeyPair> {
    const appKey = newAppKey();
    const secret = newAppSecret();
    await this.keys.insert(careId, appKey, await this.secrets.hash(secret), this.clock.now());
    return { app_key: appKey, app_secret_key: secret };
  }

  /** POST /granttoken: exchanges a key and secret for a one-hour token, revoking the key's oldest past MAX_LIVE_TOKENS_PER_KEY. */
  async grantToken(appKey: string | undefined, secret: string | undefined): Promise<AccessTokenResponse> {
    if (!appKey || !secret) throw authFailed('missing_key_or_secret');
    if (appKey.length > 200 || secret.length > 200) throw authFailed('invalid_key');
    const key = await this.keys.findActive(appKey);
    // An unknown key is checked against a decoy at the same cost: it fails as a wrong secret does, as slowly.
    if (!(await this.secrets.matches(secret, key?.secretHash)) || !key) throw authFailed('invalid_key');

    const now = this.clock.now();
    const token = newAccessToken();
    const tokenHash = hashToken(token);
    await this.tokens.deleteExpired(now);
    await this.tokens.insert(tokenHash, key.appKey, new Date(now.getTime() + TOKEN_LIFETIME_SECONDS * 1000));
    await this.tokens.keepNewest(key.appKey, tokenHash, MAX_LIVE_TOKENS_PER_KEY);
    return { access_token: token, expires_in: TOKEN_LIFETIME_SECONDS };
  }

  /**
   * The clinic an authenticated request acts for; any credential problem is
   * auth_failed. The scheme is matched in any letter case (RFC 9110, 11.1).
   * An unknown key and a token of another key are the same invalid_token, so
   * the answer never tells whether a key exists.
   */
  async authenticate(appKey: string | undefined, authorization: string | undefined): Promise<TokenOwner> {
    const token = /^bearer(?: +(.*))?$/i.exec(authorization?.trim() ?? '')?.[1];
    if (!token) throw authFailed('missing_token');
    if (!appKey) throw authFailed('missing_app_key');
    if (!/^[A-Za-z0-9_-]{16,200}$/.test(token) || appKey.length > 200) throw authFailed('invalid_token');
    const owner = await this.tokens.findOwner(hashToken(token), appKey, this.clock.now());
    if (!owner) throw authFailed('invalid_token');
    return owner;
  }
}
