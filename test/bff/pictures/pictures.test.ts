import { createServer, type Server } from 'node:http';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pictureKey } from '../../../contract/rules/pictures.js';
import { PICTURE_LIMITS } from '../../../bff/app.js';
import { rawGet } from '../content/raw-get.js';
import type { FakeClock } from '../../support/fake-clock.js';
import { bffClinicFixture, closeServer, listen, startStack, type Stack } from '../support/bff-harness.js';
import { parseOutboundAllowlist } from '../../../bff/outbound/outbound-allowlist.js';
import { expectError } from '../../support/expect-error.js';
import { eventually } from '../../support/eventually.js';

/**
 * A picture host: a PNG, a JPEG, an HTML page posing as a picture, one too
 * large, a gzip answer and a redirect. It listens on 127.0.0.1, beside the
 * clinic's upstream (another port), so the BFF reaches it because
 * OUTBOUND_ALLOWLIST names it.
 */
const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');
const JPEG = Buffer.concat([Buffer.from('ffd8ffe0', 'hex'), Buffer.alloc(2000, 7)]);
/** A gzip bomb: 16 MiB of zeros in about 16 KiB. */
const PACKED = gzipSync(Buffer.alloc(16 * 1024 * 1024));
let host: Server;
let hostUrl: string;
const hostHits: string[] = [];
let stack: Stack;
/** /flaky.jpg answers 500 while this is set: its host is down. */
let flakyDown = false;

beforeAll(async () => {
  host = createServer((req, res) => {
    hostHits.push(req.url ?? '');
    if (req.url === '/logo.png') res.writeHead(200, { 'content-type': 'image/png' }).end(PNG);
    else if (req.url === '/hero.jpg') res.writeHead(200, { 'content-type': 'image/jpeg' }).end(JPEG);
    else if (req.url === '/sig.svg') res.writeHead(200, { 'content-type': 'image/svg+xml; charset=utf-8' }).end('<svg xmlns="http://www.w3.org/2000/svg"/>');
    else if (req.url === '/flaky.jpg') res.writeHead(flakyDown ? 500 : 200, { 'content-type': 'image/jpeg' }).end(JPEG);
    else if (req.url === '/about.jpg') res.writeHead(200, { 'content-type': 'text/html' }).end('<script>alert(1)</script>');
    else if (req.url === '/packed.png') res.writeHead(200, { 'content-type': 'image/png', 'content-encoding': 'gzip' }).end(PACKED);
    else if (req.url === '/huge.jpg') res.writeHead(200, { 'content-type': 'image/jpeg' }).end(Buffer.alloc(PICTURE_LIMITS.maxPictureBytes + 1));
    else if (req.url === '/huge-chunked.jpg') {
      res.writeHead(200, { 'content-type': 'image/jpeg' });
      for (let i = 0; i < 20; i++) res.write(Buffer.alloc(PICTURE_LIMITS.maxPictureBytes / 10));
      res.end();
    } else if (req.url === '/moved.jpg') res.writeHead(302, { location: `${hostUrl}/hero.jpg` }).end();
    else res.writeHead(404).end();
  });
  hostUrl = await listen(host);
  const clinic = bffClinicFixture();
  clinic.organization.logo = `${hostUrl}/logo.png`;
  clinic.website.hero_bg_image = `${hostUrl}/hero.jpg`;
  clinic.website.about_image = `${hostUrl}/about.jpg`;
  clinic.website.services[0]!.image = `${hostUrl}/huge.jpg`;
  clinic.website.testimonials[0]!.photo = `${hostUrl}/huge-chunked.jpg`;
  clinic.website.team_members[0]!.photo = `${hostUrl}/moved.jpg`;
  clinic.dentists[0]!.signature_image_url = `${hostUrl}/sig.svg`;
  clinic.dentists[1]!.signature_image_url = `${hostUrl}/flaky.jpg`;
  clinic.website.services.push({ ...clinic.website.services[0]!, image: `${hostUrl}/packed.png` });
  stack = await startStack({ clinic, bff: { outboundAllowlist: parseOutboundAllowlist(new URL(hostUrl).host) } });
});
afterAll(async () => {
  await stack?.close();
  await closeServer(host);
});

const picture = (url: string, headers: Record<string, string> = {}) => fetch(`${stack.bff.api}/pictures/${pictureKey(url)}`, { headers });

describe('GET /api/pictures/{key}', () => {
  it("serves a picture the clinic's content names, with its image type, from the BFF's origin, cached", async () => {
    const res = await picture(`${hostUrl}/logo.png`, { origin: 'https://clinic.example' });

    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await res.arrayBuffer()).equals(PNG)).toBe(true);
    expect(res.headers.get('cache-control')).toMatch(/^public, max-age=\d+$/);
    expect(res.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('content-security-policy')).toMatch(/default-src 'none'.*sandbox/);
  });

  it('serves an SVG picture, sandboxed so that opened on its own it cannot run script', async () => {
    const res = await picture(`${hostUrl}/sig.svg`);

    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/svg+xml');
    expect(res.headers.get('content-security-policy')).toBe("default-src 'none'; style-src 'unsafe-inline'; sandbox");
  });

  it('asks the picture host once, then answers from its cache, and 304 to its ETag', async () => {
    const first = await picture(`${hostUrl}/hero.jpg`);
    expect(first.status).toBe(200);
    expect(Buffer.from(await first.arrayBuffer()).equals(JPEG)).toBe(true);
    // node:http, not fetch: fetch adds Cache-Control: no-cache to a conditional request, which a server must not answer 304.
    const again = await rawGet(`${stack.bff.api}/pictures/${pictureKey(`${hostUrl}/hero.jpg`)}`, { 'if-none-match': first.headers.get('etag')! });

    expect(again.status).toBe(304);
    expect(hostHits.filter((path) => path === '/hero.jpg')).toHaveLength(1);
  });

  it('keeps serving a picture past its TTL while its host is down, as the content is served', async () => {
    expect((await picture(`${hostUrl}/flaky.jpg`)).status).toBe(200);
    const flakyHits = () => hostHits.filter((path) => path === '/flaky.jpg').length;
    const hitsBefore = flakyHits();
    flakyDown = true;
    try {
      (stack.upstream.clock as FakeClock).advance(stack.bff.config.cache.ttlMs + 1_000);
      const stale = await picture(`${hostUrl}/flaky.jpg`);
      expect(stale.status).toBe(200);
      expect(Buffer.from(await stale.arrayBuffer()).equals(JPEG)).toBe(true);
      // No refresh starts while one is in flight: once a later request has started a second, the first has
      // failed, and every answer meanwhile was still the kept copy.
      const later: boolean[] = [];
      await eventually(async () => {
        const res = await picture(`${hostUrl}/flaky.jpg`);
        later.push(res.status === 200 && Buffer.from(await res.arrayBuffer()).equals(JPEG));
        expect(flakyHits()).toBeGreaterThanOrEqual(hitsBefore + 2);
      });
      expect(later.every(Boolean)).toBe(true);
    } finally {
      flakyDown = false;
    }
  });

  it('answers 404 for any URL the content does not name, without fetching it: no open proxy', async () => {
    for (const url of [`${hostUrl}/secret.png`, 'http://127.0.0.1:1/x.png', `${hostUrl}/logo.png?x=1`, 'https://cdn.example.com/logo.png']) {
      const res = await picture(url);
      expect(res.status, url).toBe(404);
      expect(await res.json()).toMatchObject({ success: false, error_code: 'not_found' });
    }
    expect(hostHits.filter((path) => path.startsWith('/secret') || path.includes('?'))).toEqual([]);
  });

  it('answers 404 for a key that is no base64url of a URL', async () => {
    for (const key of ['%2F%2Fevil', '!!!', 'A'.repeat(5000), '_-_-']) {
      const res = await fetch(`${stack.bff.api}/pictures/${key}`);
      expect([400, 404], key).toContain(res.status);
    }
  });

  /** The one answer to every picture not served (test/bff/pictures/picture-addresses.test.ts). */
  const notServed = async (res: Response) => expect((await expectError(res, 502, 'upstream_unavailable')).message).toBe('The picture could not be fetched');

  it('refuses a named URL whose answer is not an image', async () => {
    const res = await picture(`${hostUrl}/about.jpg`);

    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    await notServed(res);
  });

  it('refuses a named picture larger than the limit, by its Content-Length or as it streams', async () => {
    await notServed(await picture(`${hostUrl}/huge.jpg`));
    await notServed(await picture(`${hostUrl}/huge-chunked.jpg`));
  });

  it('refuses a compressed answer rather than inflate it (a gzip bomb)', async () => {
    await notServed(await picture(`${hostUrl}/packed.png`));
    expect(hostHits.filter((path) => path === '/packed.png')).toHaveLength(1);
  });

  it('does not follow a redirect from a named URL', async () => {
    const before = hostHits.filter((path) => path === '/hero.jpg').length;

    await notServed(await picture(`${hostUrl}/moved.jpg`));
    expect(hostHits.filter((path) => path === '/hero.jpg')).toHaveLength(before);
  });

  it('is declared in the OpenAPI document', async () => {
    const doc = (await (await fetch(`${stack.bff.api}/openapi.json`)).json()) as { paths: Record<string, { get?: { operationId?: string } }> };

    expect(doc.paths['/api/pictures/{key}']?.get?.operationId ?? doc.paths['/pictures/{key}']?.get?.operationId).toBe('getPicture');
  });
});
