import { describe, expect, it } from 'vitest';
import { base32, isSiteId, newSiteId, SITE_ID_PATTERN } from '../../../bff/sites/site-id.js';

describe('site ids', () => {
  it('encodes RFC 4648 base32 in lower case without padding (the RFC test vectors)', () => {
    const vectors: [string, string][] = [
      ['', ''],
      ['f', 'my'],
      ['fo', 'mzxq'],
      ['foo', 'mzxw6'],
      ['foob', 'mzxw6yq'],
      ['fooba', 'mzxw6ytb'],
      ['foobar', 'mzxw6ytboi'],
    ];
    for (const [text, encoded] of vectors) expect(base32(Buffer.from(text))).toBe(encoded);
  });

  it('is cbs_ and 26 base32 characters: 128 bits, the last character holding three', () => {
    const id = newSiteId();

    expect(id).toMatch(/^cbs_[a-z2-7]{26}$/);
    expect(id).toMatch(SITE_ID_PATTERN);
    expect(isSiteId(id)).toBe(true);
    expect(base32(Buffer.alloc(16, 0xff))).toBe('7'.repeat(25) + '4');
  });

  it('tells a site id from lookalikes', () => {
    for (const bad of ['cbs_', 'CBS_' + 'a'.repeat(26), 'cbs_' + 'a'.repeat(25), 'cbs_' + 'a'.repeat(25) + 'b', 'cbs_' + 'a'.repeat(25) + '1', 'xbs_' + 'a'.repeat(26)]) {
      expect(isSiteId(bad), bad).toBe(false);
    }
  });

  it('draws every id afresh: 2,000 ids, no repeat, every base32 character about equally often', () => {
    const ids = Array.from({ length: 2000 }, newSiteId);
    expect(new Set(ids).size).toBe(ids.length);

    // 25 full characters per id: 50,000 draws over 32 symbols, 1,562.5 each expected (sd about 39).
    const counts = new Map<string, number>();
    for (const id of ids) for (const char of id.slice(4, 29)) counts.set(char, (counts.get(char) ?? 0) + 1);
    expect(counts.size).toBe(32);
    for (const [char, count] of counts) {
      expect(count, char).toBeGreaterThan(1300);
      expect(count, char).toBeLessThan(1830);
    }
  });
});
