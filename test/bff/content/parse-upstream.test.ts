import { afterEach, describe, expect, it } from 'vitest';
import { ErrorBody, TreatmentListResponse, WebsiteResponse } from '../../../contract/index.js';
import { DEFAULT_THEME, LIMITS } from '../../../contract/rules/index.js';
import { startBff, startStubUpstream, type RunningBff } from '../support/bff-harness.js';
import { validUpstreamBodies, type Json } from '../support/upstream-bodies.js';

/**
 * The repairs of an upstream answer (bff/content/parse-upstream.ts) at their
 * edges, through GET /api/*: which field is repaired how, and when an answer
 * is refused whole. field-fallback.test.ts has the everyday cases.
 */

let bodies: Record<string, Json>;
let bff: RunningBff | undefined;
let bffCount = 0;

const stub = await startStubUpstream((req, res) => {
  res.setHeader('content-type', 'application/json');
  if (req.url === '/api/v1/granttoken') return void res.end(JSON.stringify({ access_token: 'stub-token-repairs-0123456789', expires_in: 3600 }));
  res.end(JSON.stringify(bodies[req.url]));
});
afterEach(async () => {
  await bff?.close();
  bff = undefined;
});

/** A fresh BFF (so an empty cache) over the upstream bodies as `spoil` leaves them. */
async function get(path: string, spoil: (bodies: Record<string, Json>) => void): Promise<Response> {
  bodies = validUpstreamBodies('Repair Dental');
  spoil(bodies);
  bff = await startBff(stub.api, { appKey: `ck_repairs_${bffCount++}`, secret: 'repairs-secret-0123456789' });
  return fetch(`${bff.api}${path}`);
}

async function served<T>(res: Response, schema: { parse(value: unknown): T }): Promise<T> {
  expect(res.status).toBe(200);
  return schema.parse(await res.json());
}

const site = (b: Record<string, Json>) => b['/api/v1/website']!.site as Json;

describe('a record entry whose key the contract refuses', () => {
  it('is dropped, and the other entries are kept', async () => {
    const res = await get('/website', (b) => {
      site(b).section_labels = { services: 'Our services', ['k'.repeat(65)]: 'Too long a key', team: 'Our team' };
    });

    const { site: answered } = await served(res, WebsiteResponse);

    expect(answered.section_labels).toEqual({ services: 'Our services', team: 'Our team' });
  });
});

describe('an over-long http(s) URL in a plain text field', () => {
  it('is blanked rather than cut, since a cut URL points somewhere else', async () => {
    const res = await get('/website', (b) => {
      site(b).hero_badge = `https://clinic.example/${'p'.repeat(LIMITS.shortText)}`;
    });

    const { site: answered } = await served(res, WebsiteResponse);

    expect(answered.hero_badge).toBe('');
    expect(answered.hero_title).toBe('Healthy smiles');
  });
});

describe('an over-long text with a character of two UTF-16 units before the cut', () => {
  it('is cut at exactly its limit, keeping that character whole', async () => {
    const res = await get('/treatments', (b) => {
      ((b['/api/v1/treatments']!.data as Json[])[0]!).treatment_name = `😀${'a'.repeat(LIMITS.shortText)}`;
    });

    const { data } = await served(res, TreatmentListResponse);

    expect(data[0]!.treatment_name).toBe(`😀${'a'.repeat(LIMITS.shortText - 2)}`);
  });
});

describe('an answer with a field that can be repaired and one that cannot', () => {
  it('is refused whole: 502 upstream_unavailable, never served half repaired', async () => {
    const res = await get('/organization', (b) => {
      const organization = b['/api/v1/organization']!.data as Json;
      organization.logo = 'javascript:alert(1)';
      delete organization.currency;
    });

    expect(res.status).toBe(502);
    expect(ErrorBody.parse(await res.json()).error_code).toBe('upstream_unavailable');
  });
});

describe('a colour and a URL repaired in one answer with a list cut to its limit', () => {
  it('are all repaired together', async () => {
    const res = await get('/website', (b) => {
      Object.assign(site(b), { theme_dark: 'black', map_url: 'ftp://maps.example', faqs: Array.from({ length: 101 }, (_, n) => ({ question: `Q${n}`, answer: 'A' })) });
    });

    const { site: answered } = await served(res, WebsiteResponse);

    expect(answered.theme_dark).toBe(DEFAULT_THEME.dark);
    expect(answered.map_url).toBe('');
    expect(answered.faqs).toHaveLength(100);
  });
});
