import { brotliDecompressSync } from 'node:zlib';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { zlibCompressor } from '../../../bff/content/content-cache.js';
import { CONTENT_BUNDLE_PATH, ContentBundleResponse } from '../../../contract/bff.js';
import { DentistListResponse, OrganizationResponse, TreatmentListResponse, WebsiteResponse } from '../../../contract/index.js';
import { startStack } from '../support/bff-harness.js';
import { rawGet } from './raw-get.js';
import { FakeClock } from '../../support/fake-clock.js';
import { eventually } from '../../support/eventually.js';

const TTL_MS = 60_000;

/** A stack of the test's own (its cache filled by nothing but this test), its BFF on a fake clock. */
async function bundleStack() {
  const time = new FakeClock(Date.now());
  const stack = await startStack({ clock: time, bff: { cache: { ttlMs: TTL_MS, maxStaleMs: 3600_000, maxBytes: 1024 * 1024 } } });
  const url = () => `${stack.bff.api}${CONTENT_BUNDLE_PATH}`;
  const json = async (path: string) => (await rawGet(`${stack.bff.api}${path}`, {})).body.toString();
  return { time, stack, url, json };
}

afterEach(() => vi.restoreAllMocks());

describe('GET /api/content', () => {
  it('answers the organization, website, treatments and dentists in one body, as the single endpoints have them', async () => {
    const { url, json } = await bundleStack();
    const res = await rawGet(url(), {});

    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    const bundle = ContentBundleResponse.parse(JSON.parse(res.body.toString()));
    expect(bundle.data.organization).toEqual(OrganizationResponse.parse(JSON.parse(await json('/organization'))).data);
    expect(bundle.data.site).toEqual(WebsiteResponse.parse(JSON.parse(await json('/website'))).site);
    expect(bundle.data.treatments).toEqual(TreatmentListResponse.parse(JSON.parse(await json('/treatments'))).data);
    expect(bundle.data.dentists).toEqual(DentistListResponse.parse(JSON.parse(await json('/dentists'))).data);
  });

  it('shares the cached entries with the single endpoints: one upstream call per resource', async () => {
    const { stack, url, json } = await bundleStack();
    expect((await rawGet(url(), {})).status).toBe(200);

    for (const path of ['/organization', '/website', '/treatments', '/dentists']) await json(path);

    for (const path of ['/organization', '/website', '/treatments', '/dentists']) expect(stack.upstreamHits(path), path).toBe(1);
  });

  it('has one ETag and the content Cache-Control, and answers 304 to If-None-Match carrying it', async () => {
    const { stack, url } = await bundleStack();
    const first = await rawGet(url(), {});
    const treatments = await rawGet(`${stack.bff.api}/treatments`, {});
    expect(first.headers.etag).toMatch(/^"[\w-]+"$/);
    expect(first.headers['cache-control']).toBe(treatments.headers['cache-control']);
    expect(String(first.headers.vary).toLowerCase()).toContain('accept-encoding');
    expect(String(first.headers.vary).toLowerCase()).toContain('origin');

    const again = await rawGet(url(), { 'if-none-match': String(first.headers.etag) });

    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
  });

  it('is compressed like the others, once, however many requests it serves', async () => {
    const { url } = await bundleStack();
    const br = vi.spyOn(zlibCompressor, 'br');
    const plain = await rawGet(url(), {});
    const first = await rawGet(url(), { 'accept-encoding': 'br' });
    const second = await rawGet(url(), { 'accept-encoding': 'br' });

    expect(first.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(first.body).equals(plain.body)).toBe(true);
    expect(second.body.equals(first.body)).toBe(true);
    // Built by the first request, compressed in brotli by the first that asked for it, and only then.
    expect(br).toHaveBeenCalledTimes(1);
    expect(br.mock.calls[0]![0].equals(plain.body)).toBe(true);
  });

  it('follows the single entries: a new ETag once a resource has changed upstream and been refetched, compressed once', async () => {
    const { time, stack, url } = await bundleStack();
    const before = await rawGet(url(), {});
    const br = vi.spyOn(zlibCompressor, 'br');
    await stack.upstream.db.updateTable('treatments').set({ treatment_name: 'Bundle whitening' }).where('care_id', '=', stack.clinic.careId).execute();
    time.advance(TTL_MS + 1_000);
    // The stale copy is served while the refresh runs; then the new one.
    await rawGet(url(), {});
    await eventually(async () => expect((await rawGet(url(), {})).body.toString()).toContain('Bundle whitening'));

    const after = await rawGet(url(), {});

    expect(after.headers.etag).not.toBe(before.headers.etag);
    expect(after.body.toString()).toContain('Bundle whitening');
    expect(stack.upstreamHits('/treatments')).toBe(2);
    for (let i = 0; i < 3; i++) await rawGet(url(), { 'accept-encoding': 'br' });
    expect(br.mock.calls.filter(([body]) => Buffer.from(body).equals(after.body))).toHaveLength(1);
  });
});
