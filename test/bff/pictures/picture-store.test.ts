import { createServer } from 'node:http';
import { describe, expect, it } from 'vitest';
import { PictureStore } from '../../../bff/pictures/picture-store.js';
import { OutboundPolicy } from '../../../bff/outbound/outbound-policy.js';
import { parseOutboundAllowlist } from '../../../bff/outbound/outbound-allowlist.js';
import { FakeClock, TEST_NOW } from '../../support/fake-clock.js';
import { closeWhenScopeEnds, once } from '../../support/scoped-teardown.js';
import { closeServer, listen } from '../support/bff-harness.js';

/** Limits small enough to count by hand: pictures of 1,000 bytes, 4 per site, 12 in all. */
const LIMITS = { maxPictureBytes: 1_000, maxSiteBytes: 4_000, maxBytes: 12_000 };
const PICTURE = Buffer.alloc(1_000, 1);
const LOGO = Buffer.alloc(100, 2);

const downloads: string[] = [];
const host = createServer((req, res) => {
  downloads.push(req.url ?? '');
  res.writeHead(200, { 'content-type': 'image/png' }).end(req.url === '/logo.png' ? LOGO : PICTURE);
});
const hostUrl = await listen(host);
closeWhenScopeEnds(once(() => closeServer(host)));
const outbound = new OutboundPolicy({ allowlist: parseOutboundAllowlist(new URL(hostUrl).host) });

describe('PictureStore: every site within its share, all of them within the whole', () => {
  const store = new PictureStore({ ...LIMITS, ttlMs: 60_000, timeoutMs: 2_000, clock: new FakeClock(TEST_NOW), outbound });
  const site = (siteId: string) => ({ siteId, upstreamOrigin: 'https://api.clinic.example' });
  const downloadsOf = (path: string) => downloads.filter((url) => url === path).length;

  it('when many sites fill their shares past the whole, the site holding least keeps its picture', async () => {
    await store.get(site('small'), `${hostUrl}/logo.png`);
    // Four sites at their 4,000 bytes each: 16,000 with the logo, past the 12,000 of the whole.
    for (const busy of ['a', 'b', 'c', 'd']) for (let i = 0; i < 4; i++) await store.get(site(busy), `${hostUrl}/${busy}-${i}.png`);

    expect((await store.get(site('small'), `${hostUrl}/logo.png`)).body.equals(LOGO)).toBe(true);
    expect(downloadsOf('/logo.png')).toBe(1);
    // The whole was kept: the busy sites gave up pictures of their own, 4,100 bytes' worth at least.
    let downloadedAgain = 0;
    for (const busy of ['a', 'b', 'c', 'd']) {
      for (let i = 0; i < 4; i++) {
        await store.get(site(busy), `${hostUrl}/${busy}-${i}.png`);
        downloadedAgain += downloadsOf(`/${busy}-${i}.png`) - 1;
      }
    }
    expect(downloadedAgain).toBeGreaterThanOrEqual(5);
  });

  it("never serves one site a picture fetched for another: each site's copy is its own", async () => {
    const url = `${hostUrl}/shared.png`;
    await store.get(site('one'), url);
    await store.get(site('two'), url);

    expect(downloadsOf('/shared.png')).toBe(2);
  });

  it('forgets a dropped site\'s pictures, and only its own: its next request downloads again', async () => {
    const url = `${hostUrl}/dropped.png`;
    await store.get(site('dropped'), url);
    await store.get(site('kept'), url);

    store.dropSite('dropped');
    await store.get(site('dropped'), url);
    await store.get(site('kept'), url);

    expect(downloadsOf('/dropped.png')).toBe(3);
  });
});
