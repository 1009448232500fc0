import { describe, expect, it } from 'vitest';
import { LIMITS } from '../../../contract/rules/limits.js';
import { IdempotencyKeyHeader } from '../../../contract/index.js';
import { dentistKey, siteKey } from '../../../bff/booking/upstream-keys.js';

const SITE = 'cbs_abcdefghijklmnopqrstuvwxya';
const OTHER_SITE = 'cbs_zyxwvutsrqponmlkjihgfedca';

describe('the Idempotency-Key a booking goes upstream under', () => {
  it("is the patient's key as it came on the default site, and carries the site's id on a site", () => {
    expect(siteKey('patient-key-1', undefined)).toBe('patient-key-1');
    expect(siteKey('patient-key-1', SITE)).toBe(`${SITE}:patient-key-1`);
    expect(dentistKey(siteKey('patient-key-1', SITE), 7)).toBe(`${SITE}:patient-key-1:doctor-7`);
  });

  it('stays within the header limit for the longest key, and apart for two sites, by hashing the key', () => {
    const longest = 'k'.repeat(LIMITS.idempotencyKey);

    const keys = [siteKey(longest, SITE), siteKey(longest, OTHER_SITE), dentistKey(siteKey(longest, SITE), 123_456)];

    for (const key of keys) expect(IdempotencyKeyHeader.safeParse(key).success, key).toBe(true);
    expect(keys[0]).toMatch(new RegExp(`^${SITE}:[A-Za-z0-9_-]{43}$`));
    expect(keys[1]).not.toBe(keys[0]);
    expect(keys[2]).toBe(`${keys[0]}:doctor-123456`);
    expect(siteKey(longest, SITE)).toBe(keys[0]);
  });
});
