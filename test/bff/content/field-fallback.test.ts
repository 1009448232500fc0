import { beforeEach, describe, expect, it } from 'vitest';
import {
  DentistListResponse,
  ErrorBody,
  OrganizationResponse,
  TreatmentListResponse,
  TreatmentResponse,
  WebsiteResponse,
} from '../../../contract/index.js';
import { DEFAULT_THEME, LIMITS } from '../../../contract/rules/index.js';
import { startBff, startStubUpstream, type RunningBff } from '../support/bff-harness.js';
import { validUpstreamBodies, type Json } from '../support/upstream-bodies.js';

/**
 * One bad field never sinks a resource: each kind of field an upstream other
 * than the reference server may get wrong falls back on its own, and the rest
 * of the resource is served. Only an answer that cannot be repaired is a 502.
 */

let bff: RunningBff;
let bodies: Record<string, Json>;
let credentialsCounter = 0;

const stub = await startStubUpstream((req, res) => {
  res.setHeader('content-type', 'application/json');
  if (req.url === '/api/v1/granttoken') return void res.end(JSON.stringify({ access_token: 'stub-token-fallback-0123456789', expires_in: 3600 }));
  res.end(JSON.stringify(bodies[req.url]));
});
// A fresh BFF (and so an empty cache) for each test, closed when that test ends.
beforeEach(async () => {
  bodies = validUpstreamBodies('Fallback Dental');
  bff = await startBff(stub.api, { appKey: `ck_fallback_${credentialsCounter++}`, secret: 'fallback-secret-0123456789' });
});

const site = () => bodies['/api/v1/website']!.site as Json;
const organization = () => (bodies['/api/v1/organization']!.data as Json);
const treatment = (index: number) => (bodies['/api/v1/treatments']!.data as Json[])[index]!;

async function getOk<T>(path: string, schema: { parse(value: unknown): T }): Promise<T> {
  const res = await fetch(`${bff.api}${path}`);
  expect(res.status, path).toBe(200);
  return schema.parse(await res.json());
}

async function expect502(path: string): Promise<void> {
  const res = await fetch(`${bff.api}${path}`);
  expect(res.status, path).toBe(502);
  expect(ErrorBody.parse(await res.json()).error_code).toBe('upstream_unavailable');
}

describe('theme colours that are not hex', () => {
  it('fall back to the default theme, each on its own, and the rest of the website is served', async () => {
    Object.assign(site(), { theme_primary: 'red', theme_secondary: '#f59e0b', theme_dark: 'rgb(0,0,0)' });

    const { site: served } = await getOk('/website', WebsiteResponse);

    expect([served.theme_primary, served.theme_secondary, served.theme_dark]).toEqual([DEFAULT_THEME.primary, '#f59e0b', DEFAULT_THEME.dark]);
    expect(served.hero_title).toBe('Healthy smiles');
    expect(served.team_members).toHaveLength(1);
  });

  it('fall back together with a URL that is not http(s) in the same answer', async () => {
    Object.assign(site(), { theme_secondary: 'javascript:alert(1)', about_image: 'javascript:alert(1)' });

    const { site: served } = await getOk('/website', WebsiteResponse);

    expect(served.theme_secondary).toBe(DEFAULT_THEME.secondary);
    expect(served.about_image).toBe('');
    expect(served.hero_bg_image).toBe('https://cdn.example.com/hero.jpg');
  });
});

describe('over-long strings', () => {
  it('are shortened to their limit (a short text)', async () => {
    site().hero_title = `${'Smiles '.repeat(40)}END`;

    const { site: served } = await getOk('/website', WebsiteResponse);

    expect(served.hero_title).toHaveLength(LIMITS.shortText);
    expect(served.hero_title.startsWith('Smiles Smiles')).toBe(true);
    expect(served.clinic_name).toBe('Fallback Dental');
  });

  it('are shortened without splitting a character made of two UTF-16 units', async () => {
    treatment(0).treatment_name = `${'a'.repeat(LIMITS.shortText - 1)}😀😀`;

    const { data } = await getOk('/treatments', TreatmentListResponse);

    expect(data[0]!.treatment_name).toBe('a'.repeat(LIMITS.shortText - 1));
    expect(data[1]!.treatment_name).toBe('Whitening');
  });

  it('are shortened in an HTML field, and what is left is still sanitised markup', async () => {
    site().about_description = `<p>${'a'.repeat(LIMITS.html - 10)}<strong>cut <script>alert(1)</script></strong></p>`;

    const { site: served } = await getOk('/website', WebsiteResponse);

    expect(served.about_description.length).toBeLessThanOrEqual(LIMITS.html);
    expect(served.about_description).toMatch(/^<p>a+/);
    expect(served.about_description).not.toContain('<script');
  });

  it('are blanked in a URL field, since a shortened URL points somewhere else', async () => {
    organization().website = `https://clinic.example/${'p'.repeat(LIMITS.url)}`;
    organization().logo = `https://clinic.example/${'l'.repeat(LIMITS.url)}.png`;

    const { data } = await getOk('/organization', OrganizationResponse);

    expect(data.website).toBe('');
    expect(data.logo).toBeNull();
    expect(data.name).toBe('Fallback Dental');
  });
});

describe('lists longer than the contract allows', () => {
  it('keep their first entries up to the limit', async () => {
    const member = (n: number) => ({ photo: '', name: `Member ${n}`, role: 'Nurse', linkedin: '' });
    site().team_members = Array.from({ length: 60 }, (_, n) => member(n));

    const { site: served } = await getOk('/website', WebsiteResponse);

    expect(served.team_members).toHaveLength(50);
    expect(served.team_members[49]!.name).toBe('Member 49');
  });
});

describe('fields the contract does not know', () => {
  it('are dropped, at any depth, and the rest is served', async () => {
    treatment(1).internal_cost = '12.00';
    (bodies['/api/v1/dentists']!.data as Json[])[0]!.home_address = '7 Secret Lane';
    bodies['/api/v1/treatments/1']!.debug = { sql: 'SELECT *' };

    const list = await getOk('/treatments', TreatmentListResponse);
    const dentists = await getOk('/dentists', DentistListResponse);
    const one = await getOk('/treatments/1', TreatmentResponse);

    expect(list.data[1]).not.toHaveProperty('internal_cost');
    expect(JSON.stringify(dentists)).not.toContain('Secret Lane');
    expect(one).not.toHaveProperty('debug');
    expect(one.data.treatment_name).toBe('Check-up');
  });
});

describe('answers that cannot be repaired', () => {
  it.each([
    ['a website without its site object', '/website', () => delete bodies['/api/v1/website']!.site],
    ['an envelope that says success: false', '/treatments', () => (bodies['/api/v1/treatments']!.success = false)],
    ['a treatment id given as text', '/treatments', () => (treatment(0).treatment_id = 'one')],
    ['a fee that is not a decimal amount', '/treatments/1', () => ((bodies['/api/v1/treatments/1']!.data as Json).base_fee = 'cheap')],
    ['a missing required field', '/organization', () => delete organization().currency],
    ['a list that is an object', '/dentists', () => (bodies['/api/v1/dentists']!.data = { doctor_id: 1 })],
    ['a colour that is a number', '/website', () => (site().theme_primary = 42)],
    ['a URL that is a number', '/website', () => (site().map_url = 7)],
  ])('are 502 upstream_unavailable: %s', async (_name, path, spoil) => {
    spoil();

    await expect502(path);
  });
});
