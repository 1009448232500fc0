import { Router } from 'express';
import type { Logger } from 'pino';
import type { Clock } from '../platform/clock.js';
import type { RedisLink } from '../platform/redis-link.js';
import type { GivingBackRateLimit } from '../platform/rate-limits.js';
import { notFoundHandler } from '../platform/error-handler.js';
import { addOperations, operationTable, type AnyOperation } from '../platform/operation.js';
import type { BffMetrics } from './metrics/bff-metrics.js';
import type { BffConfig } from './config.js';
import type { SiteSettings } from './sites/site-settings.js';
import { TokenManager } from './upstream/token-manager.js';
import { UpstreamClient } from './upstream/upstream-client.js';
import { ReadBudget } from './upstream/read-budget.js';
import { ConcurrencyGate } from './upstream/concurrency-gate.js';
import { Readiness, reportingAnswers, upstreamProbe } from './health/readiness.js';
import { ContentCache } from './content/content-cache.js';
import type { ContentStore } from './content/content-store.js';
import { contentOperations } from './content/content.routes.js';
import { bookingOperations } from './booking/booking.routes.js';
import { BookingService } from './booking/booking.service.js';
import { BookingFacts } from './booking/booking-facts.js';
import { MemoryDentistMemory, SharedDentistMemory, type DentistMemory } from './booking/dentist-memory.js';
import { availabilityOperations } from './availability/availability.routes.js';
import { availabilityDaysOperations } from './availability/availability-days.routes.js';
import { ClinicFacts } from './availability/clinic-facts.js';
import { MemoryTakenSlots, type TakenSlots } from './availability/taken-slots.js';
import { SharedTakenSlots } from './availability/shared-taken-slots.js';
import { docsOperation } from './docs/docs.routes.js';
import { pictureOperations } from './pictures/pictures.routes.js';
import { PictureStore } from './pictures/picture-store.js';
import { apiCors } from './http/cors.js';
import { RefusedOrigins } from './http/refused-origins.js';

/** The clinic's pictures (/api/pictures): at most 1 MiB each, 16 MiB in all in memory. */
/** The largest picture passed on, and every site's pictures together (one store for the whole BFF, as the content's). */
export const PICTURE_LIMITS = { maxPictureBytes: 1024 * 1024, maxBytes: 16 * 1024 * 1024 };

/**
 * The picture store every site shares: one PICTURE_LIMITS.maxBytes for the
 * whole BFF, so that 1,000 sites may not hold 16 MiB of pictures each. Keyed
 * by URL: pictures are public bytes fetched without credentials, and each
 * site's route serves only a URL its own content names.
 */
export const sharedPictureStore = (config: BffConfig, clock: Clock): PictureStore =>
  new PictureStore({ ...PICTURE_LIMITS, ttlMs: config.cache.ttlMs, timeoutMs: config.upstreamTimeoutMs, clock });

/** A site's per-IP limiters: the default site's own, or the ones every site of the database shares (keyed by site and IP). */
export interface SiteLimiters {
  api: GivingBackRateLimit;
  booking: GivingBackRateLimit;
  status: GivingBackRateLimit;
}

export interface SiteApiDeps {
  /** The BFF-wide settings: timeouts, body sizes, cache TTL, read budget. */
  config: BffConfig;
  /** This site's own: upstream, keys, origins, rules, limits, reference key. */
  site: SiteSettings;
  /** Already this site's (`site` on every line it writes). */
  logger: Logger;
  clock: Clock;
  redis?: RedisLink;
  metrics?: BffMetrics;
  /** The content LRU every site shares, under one byte bound. */
  contentStore: ContentStore;
  /** The pictures every site shares (sharedPictureStore); absent, one of this site's own. */
  pictureStore?: PictureStore;
  limiters: SiteLimiters;
  /** The one gate every site's token exchanges pass (TOKEN_EXCHANGES_MAX_IN_FLIGHT): a cold start of many sites does not flood upstream. */
  exchangeGate: ConcurrencyGate;
}

/** One site's /api, and what tests and the registry reach into. */
export interface SiteApi {
  router: Router;
  tokens: TokenManager;
  cache: ContentCache;
  takenSlots: TakenSlots;
  readiness: Readiness;
  operations: readonly AnyOperation[];
}

/**
 * Builds one site's whole /api from its settings (issue 24): its own token
 * manager, upstream client, read budget, cache (its entries in the shared
 * store), limits, learnt taken slots and "any dentist" keys (its own Redis
 * scope), reference keys, CORS, and its gate of upstream requests in flight.
 * Nothing is fetched here: the first token is exchanged on the site's first
 * request that needs upstream, through the exchange gate all sites share.
 */
export function createSiteApi({ config, site, logger, clock, redis, metrics, contentStore, pictureStore, limiters, exchangeGate }: SiteApiDeps): SiteApi {
  const maxBodyBytes = config.upstreamMaxBodyBytes;
  const tokens = new TokenManager({
    upstreamUrl: site.upstreamUrl,
    appKey: site.appKey,
    appSecretKey: site.appSecretKey,
    timeoutMs: config.upstreamTimeoutMs,
    maxBodyBytes,
    clock,
    logger,
    observer: metrics,
    exchangeGate,
    // REDIS_URL: the BFF instances serving this site do one token exchange between them, not one each.
    shared: redis,
  });
  // This site's own gate (UPSTREAM_MAX_IN_FLIGHT_PER_SITE): one busy clinic cannot take the whole connection pool.
  const upstreamGate = new ConcurrencyGate(config.upstreamMaxInFlightPerSite);
  const client = new UpstreamClient(site.upstreamUrl, site.appKey, tokens, config.upstreamTimeoutMs, maxBodyBytes, logger, metrics, upstreamGate);
  const readiness = new Readiness({ probe: upstreamProbe(client), clock });
  const upstream = reportingAnswers(client, readiness);
  const readBudget = new ReadBudget({ limit: config.upstreamReadBudget, clock });
  const cache = new ContentCache(upstream, { ...config.cache, clock, readBudget, observer: metrics, store: contentStore, site: site.siteId });

  // REDIS_URL: one set of taken slots and one dentist per patient key for every BFF instance of this site.
  const scope = redis && `${redis.keyPrefix}bff:${site.redisScope}:`;

  const api = Router();
  api.use(apiCors(site.allowedOrigins, site.publicOrigin, new RefusedOrigins(logger, clock)));
  api.use(limiters.api);
  // The content first: the busiest paths, answered in one lookup without passing through the router's other routes.
  const content = contentOperations(cache, config.cache.ttlMs, config.cache.maxStaleMs);
  api.use(operationTable(content));
  const facts = new ClinicFacts(cache);
  const learnt = new MemoryTakenSlots({ maxSlots: config.availabilityMaxSlots, timeZone: site.timeZone, clock });
  const takenSlots: TakenSlots = redis && scope ? new SharedTakenSlots(redis, `${scope}taken:`, learnt) : learnt;
  const triedDentists = new MemoryDentistMemory(clock);
  const dentistMemory: DentistMemory = redis && scope ? new SharedDentistMemory(redis, `${scope}dentist:`, triedDentists) : triedDentists;
  const keysBooked = new MemoryDentistMemory(clock);
  const acceptedKeys: DentistMemory = redis && scope ? new SharedDentistMemory(redis, `${scope}accepted:`, keysBooked) : keysBooked;
  const availability = { timeZone: site.timeZone, rules: site.bookingRules, clock };
  const routed = [
    ...availabilityOperations(facts, takenSlots, availability),
    ...availabilityDaysOperations(facts, takenSlots, availability),
    ...bookingOperations({
      bookings: new BookingService({
        upstream,
        facts: new BookingFacts(cache, upstream, { ttlMs: config.cache.ttlMs, clock }),
        timeZone: site.timeZone,
        rules: site.bookingRules,
        taken: takenSlots,
        dentistMemory,
        acceptedKeys,
        clock,
        bookingTimeoutMs: config.bookingTimeoutMs,
      }),
      upstream,
      referenceKey: site.referenceKey,
      previousReferenceKeys: site.previousReferenceKeys,
      bookingRateLimit: limiters.booking,
      statusRateLimit: limiters.status,
    }),
  ];
  routed.push(
    ...pictureOperations(
      cache,
      pictureStore ?? sharedPictureStore(config, clock),
      Math.floor(config.cache.ttlMs / 1000),
    ),
  );
  const docs = docsOperation([...content, ...routed]);
  addOperations(api, [...routed, docs]);
  api.use(notFoundHandler);
  return { router: api, tokens, cache, takenSlots, readiness, operations: [...content, ...routed, docs] };
}
