import type { SiteFile } from '../../../../bff/sites/site.js';

/**
 * A site file a test may change one field of; the secret is easy to search
 * for in bytes and output. Its upstream is a name no DNS knows, which
 * `sites create` takes (bff/sites/site-upstream.ts); no test here calls it.
 */
export function siteFile(changes: Partial<SiteFile> = {}): SiteFile {
  return {
    name: 'Smile Dental',
    upstream_url: 'https://api.vendor.example/api/v1',
    app_key: 'ck_00112233445566778899aabbccddeeff',
    app_secret_key: 'SECRET-smile-7f3a9c2e5b1d4806',
    allowed_origins: ['https://smile.example', 'https://*.smile.example'],
    time_zone: 'Europe/London',
    ...changes,
  };
}
