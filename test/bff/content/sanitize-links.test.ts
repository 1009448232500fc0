import { beforeAll, describe, expect, it } from 'vitest';
import { WebsiteResponse } from '../../../contract/index.js';
import { clinicFixture } from '../../server/support/clinic-fixture.js';
import { startBff, startStubUpstream } from '../support/bff-harness.js';

/**
 * Links in a clinic's HTML fields, as GET /api/website serves them: what a
 * link keeps, what it always gets, and which targets are refused.
 */
const HERO_SUBTITLE = [
  '<a href="https://partner.example/" title="Our partner" target="_self" rel="opener">Partner</a>',
  '<a href="//evil.example/login">Sign in</a>',
  '<a href="mailto:hello@clinic.example">Write to us</a>',
].join(' ');

const site = { care_id: 1, ...clinicFixture('Link Dental').website, hero_subtitle: HERO_SUBTITLE };
const stub = await startStubUpstream((req, res) => {
  res.setHeader('content-type', 'application/json');
  if (req.url === '/api/v1/granttoken') return void res.end(JSON.stringify({ access_token: 'stub-token-links-0123456789', expires_in: 3600 }));
  res.end(JSON.stringify({ success: true, site }));
});
const bff = await startBff(stub.api, { appKey: 'ck_links', secret: 'links-secret-0123456789' });
let links: string[];

beforeAll(async () => {
  const res = await fetch(`${bff.api}/website`);
  expect(res.status).toBe(200);
  links = WebsiteResponse.parse(await res.json()).site.hero_subtitle.match(/<a\b[^>]*>[^<]*<\/a>/g) ?? [];
});

describe('links in an HTML field', () => {
  it('keep their http(s) href and their title', () => {
    expect(links[0]).toContain('href="https://partner.example/"');
    expect(links[0]).toContain('title="Our partner"');
  });

  it('all open in a new tab with no opener, no referrer and no ranking passed, whatever the clinic wrote', () => {
    expect(links).toHaveLength(3);
    for (const link of links) {
      expect(link).toContain('target="_blank"');
      expect(link).toContain('rel="noopener noreferrer nofollow"');
    }
  });

  it('lose a protocol-relative href, which would take the page’s scheme to any host, and keep their text', () => {
    expect(links[1]).not.toContain('href=');
    expect(links[1]).not.toContain('evil.example');
    expect(links[1]).toMatch(/>Sign in<\/a>$/);
  });

  it('keep a mailto: href', () => {
    expect(links[2]).toContain('href="mailto:hello@clinic.example"');
  });
});
