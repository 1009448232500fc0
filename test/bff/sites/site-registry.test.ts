import { describe, expect, it } from 'vitest';
import { SiteRegistry, UNKNOWN_SITE_TTL_MS } from '../../../bff/sites/site-registry.js';
import type { ServedSite } from '../../../bff/sites/site.store.js';
import type { SiteRecord } from '../../../bff/sites/site.js';
import type { SiteSettings } from '../../../bff/sites/site-settings.js';
import { FakeClock } from '../../support/fake-clock.js';
import { silentLogger } from '../../support/silent-logger.js';

const SITE = 'cbs_aaaaaaaaaaaaaaaaaaaaaaaaaa';

const record = (revision: string): SiteRecord => ({
  site_id: SITE,
  name: revision,
  upstream_url: 'http://127.0.0.1:1/api/v1',
  app_key: 'ck_1',
  allowed_origins: [],
  time_zone: 'Europe/London',
  booking_rules: { min_notice_minutes: 120, horizon_days: 365, default_duration_minutes: 30 },
  notifications: { language: 'en' },
  change_rules: {},
  mail: { own_relay: false },
  status: 'active',
  created_at: '2026-11-25T10:00:00.000Z',
  updated_at: '2026-11-25T10:00:00.000Z',
});

/**
 * A sites table of one row (or none) whose reads can be held: a read that
 * begins before a change and ends after the change was seen.
 */
function table() {
  let revision: string | undefined = 'r1';
  let hold: Promise<void> | undefined;
  const reads: string[] = [];
  return {
    reads,
    set: (next: string | undefined) => (revision = next),
    /** The next reads see the row as it is now, and answer only on `release()`. */
    holdReads() {
      let release!: () => void;
      hold = new Promise<void>((resolve) => (release = resolve));
      return () => {
        hold = undefined;
        release();
      };
    },
    async serving(siteId: string): Promise<ServedSite | undefined> {
      reads.push(siteId);
      const seen = siteId === SITE ? revision : undefined;
      await hold;
      return seen === undefined ? undefined : { status: 'active', site: record(seen), revision: seen, credentials: { app_key: 'ck_1', app_secret_key: 's' } };
    },
  };
}

function registry(store: ReturnType<typeof table>, clock = new FakeClock()) {
  return new SiteRegistry<string>({
    store,
    // The row's name stands for the revision it was read at: what each runtime says it was built from.
    settingsOf: (site) => ({ siteId: site.site_id, appKey: site.name }) as SiteSettings,
    build: (settings) => `runtime of ${settings.appKey}`,
    clock,
    logger: silentLogger(),
  });
}

/**
 * A site asked for while the row reads `before` (undefined: no row), its read
 * answering only after the row became `after` and a look saw that.
 */
async function readAcrossChange(before: string | undefined, after: string) {
  const store = table();
  store.set(before);
  const sites = registry(store);
  const release = store.holdReads();
  const found = sites.find(SITE);
  await Promise.resolve();
  store.set(after);
  sites.reconcile(new Map([[SITE, after]]));
  release();
  return { sites, found };
}

const runtimeOf = async (found: ReturnType<SiteRegistry<string>['find']>) => {
  const site = await found;
  return site?.status === 'active' ? site.runtime : site?.status;
};

describe('the site registry checked against the table (reconcile)', () => {
  it('keeps a site whose revision is the table\'s, and drops one changed or gone, however the change was missed', async () => {
    const store = table();
    const sites = registry(store);
    expect(await runtimeOf(sites.find(SITE))).toBe('runtime of r1');

    sites.reconcile(new Map([[SITE, 'r1']]));
    expect(sites.holds(SITE)).toBe(true);
    sites.reconcile(new Map([[SITE, 'r2']]));
    expect(sites.holds(SITE)).toBe(false);

    store.set('r2');
    expect(await runtimeOf(sites.find(SITE))).toBe('runtime of r2');
    sites.reconcile(new Map());
    expect(sites.holds(SITE)).toBe(false);
    expect(store.reads).toHaveLength(2);
  });

  it('does not keep a site read before a change and built after the look that saw the change', async () => {
    const { sites, found } = await readAcrossChange('r1', 'r2');

    // The request that asked before the change is answered with what it read; the site is not kept.
    expect(await runtimeOf(found)).toBe('runtime of r1');
    await Promise.resolve();
    expect(sites.holds(SITE)).toBe(false);
    expect(await runtimeOf(sites.find(SITE))).toBe('runtime of r2');
  });

  it('answers an unknown id from memory until it expires or the table has it', async () => {
    const store = table();
    store.set(undefined);
    const clock = new FakeClock();
    const sites = registry(store, clock);

    expect(await sites.find(SITE)).toBeUndefined();
    expect(await sites.find(SITE)).toBeUndefined();
    expect(store.reads).toHaveLength(1);
    clock.advance(UNKNOWN_SITE_TTL_MS);
    expect(await sites.find(SITE)).toBeUndefined();
    expect(store.reads).toHaveLength(2);

    store.set('r1');
    sites.reconcile(new Map([[SITE, 'r1']]));
    expect(await runtimeOf(sites.find(SITE))).toBe('runtime of r1');
    expect(store.reads).toHaveLength(3);
  });

  it('forgets an unknown id read just before the site appeared, at the look that saw it appear', async () => {
    const { sites, found } = await readAcrossChange(undefined, 'r1');

    expect(await found).toBeUndefined();
    await Promise.resolve();
    expect(await runtimeOf(sites.find(SITE))).toBe('runtime of r1');
  });
});
