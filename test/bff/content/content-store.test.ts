import { describe, expect, it } from 'vitest';
import type { CachedAnswer } from '../../../bff/content/cached-answer.js';
import { ContentStore, siteKey } from '../../../bff/content/content-store.js';
import { FakeClock } from '../../support/fake-clock.js';

const TTL_MS = 60_000;

const answerOf = (site: string, text: string, fetchedAt: number): CachedAnswer => ({
  status: 200,
  body: Buffer.from(JSON.stringify({ text })),
  etag: `"${text}"`,
  fetchedAt,
  site,
});

/** A load the test answers when it chooses: a fetch still in flight when the site is dropped. */
function heldLoad() {
  let answer!: (value: CachedAnswer) => void;
  const loaded = new Promise<CachedAnswer>((resolve) => (answer = resolve));
  return { load: () => loaded, answer };
}

/**
 * dropSite as a change leaves the store: nothing of the site, not even what
 * a fetch in flight at the drop brings afterwards (lru-cache lists no key
 * whose fetch is pending, nor the stale copy such a fetch refreshes).
 */
describe('ContentStore.dropSite with a fetch in flight', () => {
  it('keeps nothing a first load in flight at the drop brings, and still answers whoever waits on it', async () => {
    const time = new FakeClock(Date.now());
    const store = new ContentStore({ ttlMs: TTL_MS, maxBytes: 1024 * 1024, clock: time });
    const key = siteKey('dropped', '/dentists', 'r1');
    const held = heldLoad();
    const waiting = store.lru.fetch(key, { context: { load: held.load } });

    expect(store.dropSite('dropped')).toBe(1);
    held.answer(answerOf('dropped', 'late', time.now().getTime()));

    expect((await waiting)?.etag).toBe('"late"');
    expect(store.countOf('dropped')).toBe(0);
  });

  it('drops a stale copy being refreshed at the drop, and keeps nothing the refresh brings', async () => {
    const time = new FakeClock(Date.now());
    const store = new ContentStore({ ttlMs: TTL_MS, maxBytes: 1024 * 1024, clock: time });
    const key = siteKey('dropped', '/dentists', 'r1');
    store.lru.set(key, answerOf('dropped', 'old', time.now().getTime()));
    store.lru.set(siteKey('kept', '/dentists', 'r1'), answerOf('kept', 'other', time.now().getTime()));
    time.advance(TTL_MS + 1);
    const held = heldLoad();
    // The stale copy at once, its refresh in flight (allowStale): what a request past the TTL starts.
    expect((await store.lru.fetch(key, { context: { load: held.load } }))?.etag).toBe('"old"');
    const refresh = store.lru.fetch(key, { forceRefresh: true, allowStale: false, context: { load: held.load } });

    expect(store.dropSite('dropped')).toBe(1);
    held.answer(answerOf('dropped', 'new', time.now().getTime()));

    expect((await refresh)?.etag).toBe('"new"');
    expect(store.countOf('dropped')).toBe(0);
    expect(store.countOf('kept')).toBe(1);
  });
});
