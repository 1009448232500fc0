import { request, type ServerResponse } from 'node:http';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { TreatmentListResponse } from '../../../contract/index.js';
import {
  startBff,
  startStack,
  startStubUpstream,
  type RecordedRequest,
  type RunningBff,
  type Stack,
  type StubHandler,
  type StubUpstream,
} from '../support/bff-harness.js';
import { heldBytes } from './raw-get.js';
import { ContentCache } from '../../../bff/content/content-cache.js';
import { TREATMENTS, WEBSITE } from '../../../bff/content/resources.js';
import { TokenManager } from '../../../bff/upstream/token-manager.js';
import { UpstreamClient } from '../../../bff/upstream/upstream-client.js';
import { FakeClock } from '../../support/fake-clock.js';
import { expectError } from '../../support/expect-error.js';
import { eventually } from '../../support/eventually.js';

const STUB_CREDENTIALS = { appKey: 'ck_stub_key', secret: 'stub-secret-0123456789' };
const TTL_MS = 60_000;
const MAX_STALE_MS = 3600_000;
const SECRET_DETAIL = 'UPSTREAM-INTERNAL-DETAIL';

const get = (bff: RunningBff, path: string, headers: Record<string, string> = {}) => fetch(`${bff.api}${path}`, { headers });

/**
 * A GET with exactly the given headers, as a browser's HTTP cache revalidates.
 * (fetch() adds Cache-Control: no-cache to any request carrying If-None-Match.)
 */
function plainGet(url: string, headers: Record<string, string>): Promise<{ status: number; etag: string | undefined; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, etag: res.headers.etag, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** Every request the reference server answered under /api/v1 (from its request log). */
const totalUpstreamRequests = (stack: Stack) =>
  stack.upstream.logs.filter((line) => (JSON.parse(line) as { req?: { path?: string } }).req?.path?.startsWith('/api/v1/')).length;

const treatmentIds = async (stack: Stack, active: 0 | 1) =>
  (
    await stack.upstream.db
      .selectFrom('treatments')
      .select('treatment_id')
      .where('care_id', '=', stack.clinic.careId)
      .where('active', '=', active)
      .orderBy('treatment_id')
      .execute()
  ).map((row) => row.treatment_id);

const STUB_TREATMENT = {
  treatment_id: 1,
  treatment_name: 'Check-up',
  description: 'Exam',
  base_fee: '60.00',
  duration_minutes: 30,
  image_url: '',
};

/** Grants a token and answers every API path through `answer`. */
function stubApi(answer: StubHandler): StubHandler {
  return (req, res) => {
    if (req.url === '/api/v1/granttoken') {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ access_token: 'stub-token-0123456789abcdef', expires_in: 3600 }));
      return;
    }
    return answer(req, res);
  };
}

const json =
  (status: number, body: unknown) =>
  (_req: RecordedRequest, res: ServerResponse): void => {
    res.statusCode = status;
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify(body));
  };

describe('ETag and Cache-Control', () => {
  let stack: Stack;

  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(async () => {
    await stack.close();
  });

  it('answers GET /api/treatments with an ETag and Cache-Control public, max-age, stale-while-revalidate and stale-if-error', async () => {
    const res = await get(stack.bff, '/treatments');

    expect(res.status).toBe(200);
    expect(res.headers.get('etag')).toMatch(/^"[^"]+"$/);
    const cacheControl = res.headers.get('cache-control') ?? '';
    expect(cacheControl).toContain('public');
    expect(cacheControl).toContain('max-age=60');
    expect(cacheControl).toMatch(/stale-while-revalidate=\d+/);
    expect(cacheControl).toContain(`stale-if-error=${MAX_STALE_MS / 1000}`);
  });

  it('answers 304 with an empty body to If-None-Match carrying the current ETag', async () => {
    const etag = (await get(stack.bff, '/treatments')).headers.get('etag') ?? '';

    const res = await plainGet(`${stack.bff.api}/treatments`, { 'if-none-match': etag });

    expect(res.status).toBe(304);
    expect(res.body).toBe('');
    expect(res.etag).toBe(etag);
  });

  it('answers 200 with the body to If-None-Match carrying another ETag', async () => {
    const res = await plainGet(`${stack.bff.api}/treatments`, { 'if-none-match': '"some-other-etag"' });

    expect(res.status).toBe(200);
    expect(TreatmentListResponse.parse(JSON.parse(res.body)).data.length).toBeGreaterThan(0);
  });

  it('answers GET /api/treatments/:id with its own ETag and Cache-Control, and 304 to If-None-Match carrying it', async () => {
    const [activeId] = await treatmentIds(stack, 1);
    const first = await get(stack.bff, `/treatments/${activeId}`);
    const etag = first.headers.get('etag') ?? '';
    await first.arrayBuffer();

    const res = await plainGet(`${stack.bff.api}/treatments/${activeId}`, { 'if-none-match': etag });

    expect(first.status).toBe(200);
    expect(etag).toMatch(/^"[^"]+"$/);
    expect(etag).not.toBe((await get(stack.bff, '/treatments')).headers.get('etag'));
    expect(first.headers.get('cache-control')).toContain('stale-if-error=');
    expect(res.status).toBe(304);
    expect(res.body).toBe('');
  });

  it('serves fresh copies from cache: 10 sequential GETs make one upstream GET', async () => {
    for (let i = 0; i < 10; i += 1) {
      const res = await get(stack.bff, '/dentists');
      expect(res.status).toBe(200);
      await res.arrayBuffer();
    }

    expect(stack.upstreamHits('/dentists')).toBe(1);
  });

  it('answers an unknown treatment with 404 not_found', async () => {
    const res = await get(stack.bff, '/treatments/999');

    const body = await expectError(res, 404, 'not_found');
    expect(body).toEqual({ success: false, message: 'Treatment not found', error_code: 'not_found' });
  });

  it('answers an inactive treatment with 404 not_found', async () => {
    const [inactiveId] = await treatmentIds(stack, 0);

    const res = await get(stack.bff, `/treatments/${inactiveId}`);

    await expectError(res, 404, 'not_found');
  });

  it.each(['abc', '0', '01', '-1', '1.5', '1e3', '99999999999999999'])(
    'answers /api/treatments/%s with 404 not_found without calling upstream',
    async (id) => {
      const before = totalUpstreamRequests(stack);

      const res = await get(stack.bff, `/treatments/${id}`);

      await expectError(res, 404, 'not_found');
      expect(totalUpstreamRequests(stack)).toBe(before);
    },
  );
});

describe('stale content and an upstream that goes down', () => {
  /** A stack of the test's own, its BFF on a fake clock the test moves. */
  async function stackOnItsClock() {
    const time = new FakeClock(Date.now());
    return { time, stack: await startStack({ clock: time }) };
  }

  it('serves the stale copy at once past the TTL, refreshes it in the background, and shows the change on a later GET', async () => {
    const { time, stack } = await stackOnItsClock();
    const first = TreatmentListResponse.parse(await (await get(stack.bff, '/treatments')).json());
    const renamedId = first.data[0]!.treatment_id;
    await stack.upstream.db.updateTable('treatments').set({ treatment_name: 'Renamed' }).where('treatment_id', '=', renamedId).execute();
    time.advance(TTL_MS + 1000);

    const stale = await get(stack.bff, '/treatments');

    expect(stale.status).toBe(200);
    expect(TreatmentListResponse.parse(await stale.json())).toEqual(first);
    await eventually(() => expect(stack.upstreamHits('/treatments')).toBe(2));
    const later = TreatmentListResponse.parse(await (await get(stack.bff, '/treatments')).json());
    expect(later.data.find((t) => t.treatment_id === renamedId)?.treatment_name).toBe('Renamed');
    expect(stack.upstreamHits('/treatments')).toBe(2);
  });

  it('keeps serving the last good copy while the upstream is down, up to TTL + maxStale past its fetch', async () => {
    const { time, stack } = await stackOnItsClock();
    const lastGood = await (await get(stack.bff, '/treatments')).text();
    await stack.upstream.close();

    time.advance(TTL_MS + 1000);
    const justStale = await get(stack.bff, '/treatments');
    expect(justStale.status).toBe(200);
    expect(await justStale.text()).toBe(lastGood);

    time.advance(MAX_STALE_MS - 3000);
    const nearlyTooStale = await get(stack.bff, '/treatments');
    expect(nearlyTooStale.status).toBe(200);
    expect(await nearlyTooStale.text()).toBe(lastGood);
  });

  it('answers 502 upstream_unavailable with the spec error body once the copy is past TTL + maxStale', async () => {
    const { time, stack } = await stackOnItsClock();
    expect((await get(stack.bff, '/treatments')).status).toBe(200);
    await stack.upstream.close();
    time.advance(TTL_MS + MAX_STALE_MS + 2000);

    const res = await get(stack.bff, '/treatments');

    const body = await expectError(res, 502, 'upstream_unavailable');
    expect(Object.keys(body).sort()).toEqual(['error_code', 'message', 'success']);
    expect(body.message).not.toMatch(/ECONNREFUSED|127\.0\.0\.1|fetch failed/);
  });

  it('answers 502 upstream_unavailable for a resource never cached while the upstream is down', async () => {
    const { stack } = await stackOnItsClock();
    await stack.upstream.close();

    const res = await get(stack.bff, '/website');

    const body = await expectError(res, 502, 'upstream_unavailable');
    expect(body.message).not.toMatch(/ECONNREFUSED|127\.0\.0\.1|fetch failed/);
  });
});

describe('stale content from a slow or failing stub upstream', () => {
  const good = { success: true, data: [STUB_TREATMENT] };
  let time: FakeClock;
  let stub: StubUpstream;
  let bff: RunningBff;

  // A BFF of each test's own, with the good list cached and the clock it moves.
  beforeEach(async () => {
    time = new FakeClock(Date.now());
    stub = await startStubUpstream(stubApi(json(200, good)));
    bff = await startBff(stub.api, STUB_CREDENTIALS, {}, time);
    expect((await get(bff, '/treatments')).status).toBe(200);
  });
  afterEach(async () => {
    await bff.close();
    await stub.close();
  });

  it('answers with the stale copy without waiting for a slow refresh, and serves the refreshed copy once it lands', async () => {
    const refreshed = { success: true, data: [{ ...STUB_TREATMENT, treatment_name: 'Slow' }] };
    // The refresh is held at the upstream until the stale answer is in: an answer before then did not wait for it.
    let release = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    stub.handle(
      stubApi(async (req, res) => {
        await released;
        json(200, refreshed)(req, res);
      }),
    );
    time.advance(TTL_MS + 1000);
    const requestsBefore = stub.requests.length;

    try {
      const res = await get(bff, '/treatments');

      expect(res.status).toBe(200);
      expect(await res.json()).toEqual(good);
      await eventually(() => expect(stub.requests.length).toBe(requestsBefore + 1));
    } finally {
      release();
    }
    await eventually(async () => expect(await (await get(bff, '/treatments')).json()).toEqual(refreshed));
  });

  it.each<[string, StubHandler]>([
    ['answers 503', stubApi(json(503, { message: SECRET_DETAIL }))],
    ['destroys the socket', stubApi((_req, res) => void res.socket?.destroy())],
  ])('keeps serving the last good copy when the upstream %s', async (_name, handler) => {
    const lastGood = await (await get(bff, '/treatments')).text();
    stub.handle(handler);
    time.advance(TTL_MS + 1000);
    const requestsBefore = stub.requests.length;

    const first = await get(bff, '/treatments');
    expect(first.status).toBe(200);
    expect(await first.text()).toBe(lastGood);
    // No refresh starts while one is in flight: once a later GET has started a second, the first has failed.
    const later: { status: number; body: string }[] = [];
    await eventually(async () => {
      const res = await get(bff, '/treatments');
      later.push({ status: res.status, body: await res.text() });
      expect(stub.requests.length).toBeGreaterThan(requestsBefore + 1);
    });
    expect(later.every(({ status, body }) => status === 200 && body === lastGood)).toBe(true);
  });
});

describe('upstream faults on content never cached (stub upstream)', () => {
  let stub: StubUpstream;
  let bff: RunningBff;

  // A BFF of each test's own: its cache holds nothing another test's upstream answered.
  beforeEach(async () => {
    stub = await startStubUpstream();
    bff = await startBff(stub.api, STUB_CREDENTIALS, { upstreamTimeoutMs: 300 });
  });
  afterEach(async () => {
    await bff.close();
    await stub.close();
  });

  it('answers an upstream 500 with 502 upstream_unavailable and nothing of the upstream body', async () => {
    stub.handle(
      stubApi((_req, res) => {
        res.statusCode = 500;
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ success: false, message: `${SECRET_DETAIL}: SQLITE_CORRUPT at /srv/clinic.db`, error_code: 'internal_error' }));
      }),
    );

    const res = await get(bff, '/treatments');

    const body = await expectError(res, 502, 'upstream_unavailable');
    expect(body.message).not.toContain(SECRET_DETAIL);
    expect(body.message).not.toContain('SQLITE');
  });

  it('answers an upstream 500 with a text body with 502 and nothing of that text', async () => {
    stub.handle(
      stubApi((_req, res) => {
        res.statusCode = 500;
        res.setHeader('content-type', 'text/plain');
        res.end(`${SECRET_DETAIL}\n    at Database.prepare (/srv/server.js:12:3)`);
      }),
    );

    const res = await get(bff, '/website');

    const body = await expectError(res, 502, 'upstream_unavailable');
    expect(body.message).not.toContain(SECRET_DETAIL);
  });

  it('answers 504 upstream_timeout when the upstream does not answer within upstreamTimeoutMs', async () => {
    stub.handle(stubApi(() => undefined)); // never answers: any answer at all is the timeout's

    const res = await get(bff, '/dentists');

    await expectError(res, 504, 'upstream_timeout');
  });

  it('answers an upstream 200 that does not match the contract with 502, not passing the body on', async () => {
    stub.handle(stubApi(json(200, { success: true, data: [{ foo: 1, note: SECRET_DETAIL }] })));

    const res = await get(bff, '/organization');

    const body = await expectError(res, 502, 'upstream_unavailable');
    expect(body.message).not.toContain('foo');
    expect(body.message).not.toContain(SECRET_DETAIL);
  });

  it('answers an upstream 200 that is not JSON with 502', async () => {
    stub.handle(
      stubApi((_req, res) => {
        res.setHeader('content-type', 'text/html');
        res.end(`<html>${SECRET_DETAIL}</html>`);
      }),
    );

    const res = await get(bff, '/treatments/5');

    const body = await expectError(res, 502, 'upstream_unavailable');
    expect(body.message).not.toContain(SECRET_DETAIL);
  });

  it("answers an upstream 404 with the BFF's own not_found message, not the upstream's", async () => {
    stub.handle(stubApi(json(404, { success: false, message: `${SECRET_DETAIL}: no row 7`, error_code: 'not_found' })));

    const res = await get(bff, '/treatments/7');

    const body = await expectError(res, 404, 'not_found');
    expect(body).toEqual({ success: false, message: 'Treatment not found', error_code: 'not_found' });
  });
});

describe('cache memory bound', () => {
  // Above the largest entry (the website: about 2.1 KB plain, counted again for the value kept beside it, plus its
  // brotli and gzip copies: about 5.8 KB), below them all.
  const MAX_BYTES = 7000;
  // Every cached path: a treatment by id has no entry of its own, it is answered from the /treatments entry.
  const PATHS = ['/organization', '/website', '/treatments', '/dentists'];

  /** A stack of the test's own through whose cache every path has passed once, oldest first; what each holds there. */
  async function filledStack() {
    const stack = await startStack({ bff: { cache: { ttlMs: TTL_MS, maxStaleMs: MAX_STALE_MS, maxBytes: MAX_BYTES } } });
    const sizes = new Map<string, number>();
    for (const path of PATHS) {
      const res = await get(stack.bff, path);
      expect(res.status).toBe(200);
      await res.arrayBuffer();
      // What the cache holds for it: the plain bytes and the compressed copies kept beside them.
      sizes.set(path, await heldBytes(`${stack.bff.api}${path}`));
    }
    return { stack, sizes };
  }

  it('fetches an early path from upstream again once more than maxBytes of content has passed through', async () => {
    const { stack, sizes } = await filledStack();
    expect([...sizes.values()].reduce((a, b) => a + b, 0)).toBeGreaterThan(MAX_BYTES);
    for (const path of PATHS) expect(stack.upstreamHits(path), path).toBe(1);

    const res = await get(stack.bff, PATHS[0]!);

    expect(res.status).toBe(200);
    expect(stack.upstreamHits(PATHS[0]!)).toBe(2);
  });

  it('keeps the most recent paths cached, holding no more than maxBytes of content', async () => {
    const { stack, sizes } = await filledStack();

    // Walk back from the newest: each answer without an upstream call is a cached entry, until the first miss.
    const cached: string[] = [];
    for (const path of PATHS.slice(1).reverse()) {
      await (await get(stack.bff, path)).arrayBuffer();
      if (stack.upstreamHits(path) > 1) break;
      cached.push(path);
    }

    expect(cached.length).toBeGreaterThan(0);
    expect(cached.length).toBeLessThan(PATHS.length - 1);
    expect(cached.reduce((total, path) => total + sizes.get(path)!, 0)).toBeLessThanOrEqual(MAX_BYTES);
  });
});

describe('the content cache on its own (stub upstream)', () => {
  let stub: StubUpstream;

  beforeAll(async () => {
    stub = await startStubUpstream(
      stubApi((req, res) =>
        req.url === '/api/v1/treatments'
          ? json(200, { success: true, data: [STUB_TREATMENT] })(req, res)
          : json(404, { success: false, message: 'no such thing', error_code: 'not_found' })(req, res),
      ),
    );
  });
  afterAll(async () => {
    await stub.close();
  });

  /** A cache over a real upstream client, its clock moved by hand. */
  function cacheAt(time: FakeClock): ContentCache {
    const upstream = { upstreamUrl: stub.api, appKey: 'ck_cache', appSecretKey: 'cache-secret-0123456789', timeoutMs: 2_000, maxBodyBytes: 1024 * 1024 };
    const tokens = new TokenManager({ ...upstream, clock: time });
    const client = new UpstreamClient(stub.api, upstream.appKey, tokens, upstream.timeoutMs, upstream.maxBodyBytes);
    return new ContentCache(client, { ttlMs: TTL_MS, maxStaleMs: MAX_STALE_MS, maxBytes: 1024 * 1024, clock: time });
  }

  it('keeps the sanitised value beside the bytes, the same object at every read, so no reader parses the bytes again', async () => {
    const cache = cacheAt(new FakeClock(Date.now()));

    const first = await cache.get(TREATMENTS);
    const again = await cache.get(TREATMENTS);

    expect(first.value).toEqual(JSON.parse(first.body.toString('utf8')));
    expect(first.value).toEqual({ success: true, data: [STUB_TREATMENT] });
    expect(again.value).toBe(first.value);
    expect(cache.fresh(TREATMENTS)?.value).toBe(first.value);
  });

  it('parses the value from its bytes only when first read, once: caching keeps the bytes alone (ResourceAnswer)', async () => {
    const cache = cacheAt(new FakeClock(Date.now()));
    const list = await cache.get(TREATMENTS);
    const parse = vi.spyOn(JSON, 'parse');
    onTestFinished(() => parse.mockRestore());

    const first = list.value;
    const again = cache.fresh(TREATMENTS)?.value;
    const items = list.items;

    // Most sites are only ever asked for bytes: a parsed copy kept from the start cost a third of a site's heap.
    expect(parse).toHaveBeenCalledTimes(1);
    expect(parse).toHaveBeenCalledWith(list.body.toString('utf8'));
    expect(again).toBe(first);
    expect(items?.get(STUB_TREATMENT.treatment_id)).toEqual({ success: true, data: first!.data[0] });
  });

  it("makes a list item's answer only when that id is first asked for, then keeps it (bff/content/content-cache.ts item)", async () => {
    const cache = cacheAt(new FakeClock(Date.now()));

    const list = await cache.get(TREATMENTS);

    // Caching the list made no item's bytes: most items of most sites are never asked for on their own.
    expect(list.itemAnswers).toBeUndefined();
    const item = cache.item(list, STUB_TREATMENT.treatment_id);
    expect(item?.status).toBe(200);
    expect(JSON.parse(item!.body.toString('utf8'))).toEqual({ success: true, data: STUB_TREATMENT });
    expect(item?.fetchedAt).toBe(list.fetchedAt);
    expect(cache.item(list, STUB_TREATMENT.treatment_id)).toBe(item);
    expect(cache.item(list, 999)).toBeUndefined();
    expect(list.itemAnswers?.size).toBe(1);
  });

  it('keeps the bytes of an answer and of an item in memory of exactly their length (ownBytes), not in a shared pool slab', async () => {
    const cache = cacheAt(new FakeClock(Date.now()));

    const list = await cache.get(TREATMENTS);
    const item = cache.item(list, STUB_TREATMENT.treatment_id)!;

    expect(list.body.length).toBeLessThan(Buffer.poolSize);
    expect(list.body.buffer.byteLength).toBe(list.body.length);
    expect(item.body.buffer.byteLength).toBe(item.body.length);
  });

  it('keeps no value for an answer that is not the resource (an upstream 404)', async () => {
    const cache = cacheAt(new FakeClock(Date.now()));

    const answer = await cache.get(WEBSITE);

    expect(answer.status).toBe(404);
    expect(answer.value).toBeUndefined();
  });

  it('counts a copy stale as soon as the clock passes its TTL, even within the millisecond of its last reading', async () => {
    const time = new FakeClock(Date.now());
    const cache = cacheAt(time);
    await cache.get(TREATMENTS);
    expect(cache.fresh(TREATMENTS)).toBeDefined();

    // No await in between: lru-cache's own 1 ms reuse of a clock reading (ttlResolution) has had no chance to end.
    time.advance(TTL_MS + 1);

    expect(cache.fresh(TREATMENTS)).toBeUndefined();
  });
});
