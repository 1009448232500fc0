import { describe, expect, it } from 'vitest';
import { originMatcher } from '../../../bff/http/origin-matcher.js';

describe('originMatcher', () => {
  const allows = originMatcher(['https://clinic.example', 'http://127.0.0.1:8080', 'https://*.smile.example', 'https://*.ports.example:8443']);

  it('allows the exact origins and the subdomains of a wildcard, at any depth', () => {
    for (const origin of ['https://clinic.example', 'http://127.0.0.1:8080', 'https://www.smile.example', 'https://a.b.smile.example', 'https://x.ports.example:8443']) {
      expect(allows(origin), origin).toBe(true);
    }
  });

  it('refuses lookalikes: no label boundary, the apex, another suffix, scheme or port, a path, null', () => {
    for (const origin of [
      'https://evilclinic.example',
      'https://clinic.example.evil.net',
      'https://clinic.example/',
      'https://CLINIC.example',
      'http://clinic.example',
      'https://clinic.example:443x',
      'https://evilsmile.example',
      'https://smile.example',
      'https://.smile.example',
      'https://www.smile.example.evil.net',
      'http://www.smile.example',
      'https://www.smile.example:444',
      'https://x.ports.example',
      'https://www.smile.example/path',
      'https://user@www.smile.example',
      'null',
      '',
      'file://www.smile.example',
    ]) {
      expect(allows(origin), origin).toBe(false);
    }
  });
});
