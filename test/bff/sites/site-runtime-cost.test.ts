import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { parseBffConfig } from '../../../bff/config.js';
import { createSiteApi } from '../../../bff/site-api.js';
import { defaultSiteSettings } from '../../../bff/sites/site-settings.js';
import { ContentStore } from '../../../bff/content/content-store.js';
import { ConcurrencyGate } from '../../../bff/upstream/concurrency-gate.js';
import { apiRateLimit, bookingRateLimit, changeBookingRateLimit, changeRateLimit, statusRateLimit } from '../../../bff/http/rate-limits.js';
import { changeBookingOf } from '../../../bff/changes/change.routes.js';
import { silentLogger } from '../../support/silent-logger.js';
import { FakeClock, TEST_NOW } from '../../support/fake-clock.js';

const SITES = 40;
const MiB = 1024 * 1024;

/**
 * A BFF of 1,000 sites builds 1,000 site runtimes (the target: RSS <= 400 MiB
 * with every site cached). Their bounded memories (taken slots, dentists,
 * booked details, limit headers) once preallocated lru-cache's index arrays
 * for every entry they might ever hold: about 2 MiB per site before it
 * served anything, 2.2 GiB for 1,000 sites in bench/sites.bench.mjs. The
 * typed-array part of that shows in `arrayBuffers`, which little else here
 * allocates.
 */
/** A full garbage collection, for a heap reading of what is still held. */
function collectGarbage(): void {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  gc();
  gc();
}

function siteBuilder() {
  const config = parseBffConfig({ UPSTREAM_URL: 'http://127.0.0.1:1/api/v1', APP_KEY: 'k', APP_SECRET_KEY: 's', BOOKING_REF_SECRET: 'x'.repeat(32) });
  const contentStore = new ContentStore({ ttlMs: 60_000, maxBytes: MiB });
  const exchangeGate = new ConcurrencyGate(8);
  const site = defaultSiteSettings(config)!;
  const clock = new FakeClock(TEST_NOW);
  const limiters = { api: apiRateLimit(site.limits.api), booking: bookingRateLimit(site.limits.booking), status: statusRateLimit(site.limits.status) };
  return () => createSiteApi({ config, site, logger: silentLogger(), clock, contentStore, exchangeGate, limiters } as never);
}

describe('what an idle site runtime costs', () => {
  /**
   * Its services and handlers only (47 KiB here, 2026-11-26): no Express
   * router of its own (every database site is served by one,
   * sharedApiRouter), and its operations' declarations, zod schemas
   * included, made once for all sites (Declaration). With both per site it
   * held 91 KiB; with its own router alone, 68.
   */
  it(`${SITES} site runtimes hold under 56 KiB of heap each`, () => {
    const build = siteBuilder();
    const kept = [build()];
    collectGarbage();
    const before = process.memoryUsage().heapUsed;

    for (let index = 0; index < SITES; index += 1) kept.push(build());
    collectGarbage();

    const perSite = (process.memoryUsage().heapUsed - before) / SITES;
    expect(kept).toHaveLength(SITES + 1);
    expect(perSite).toBeLessThan(56 * 1024);
  });

  it(`${SITES} site runtimes allocate no index arrays up front`, () => {
    const config = parseBffConfig({ UPSTREAM_URL: 'http://127.0.0.1:1/api/v1', APP_KEY: 'k', APP_SECRET_KEY: 's', BOOKING_REF_SECRET: 'x'.repeat(32) });
    const contentStore = new ContentStore({ ttlMs: 60_000, maxBytes: MiB });
    const exchangeGate = new ConcurrencyGate(8);
    const site = defaultSiteSettings(config)!;
    const clock = new FakeClock(TEST_NOW);
    const build = () =>
      createSiteApi({
        config,
        site,
        logger: silentLogger(),
        clock,
        contentStore,
        exchangeGate,
        limiters: {
          api: apiRateLimit(site.limits.api),
          booking: bookingRateLimit(site.limits.booking),
          status: statusRateLimit(site.limits.status),
          change: changeRateLimit(config.changeRateLimit),
          changeBooking: changeBookingRateLimit(config.changeBookingRateLimit, changeBookingOf),
        },
      });
    const kept = [build()];
    const before = process.memoryUsage().arrayBuffers;

    for (let index = 0; index < SITES; index += 1) kept.push(build());

    const perSite = (process.memoryUsage().arrayBuffers - before) / SITES;
    expect(kept).toHaveLength(SITES + 1);
    expect(perSite).toBeLessThan(64 * 1024);
  });
});
