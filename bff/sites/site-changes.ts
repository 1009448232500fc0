import type { Logger } from 'pino';
import type { RedisLink } from '../../platform/redis-link.js';
import type { SiteStore } from './site.store.js';

/** How often the sites table is looked at when no interval is given. */
export const SITE_POLL_MS = 2000;

/** A site id as a message may carry it; anything else on the channel is ignored. */
const SITE_ID_MESSAGE = /^[A-Za-z0-9_-]{1,100}$/;

/** The channel changes are announced on, under the deployment's key prefix. */
export const siteChangesChannel = (redis: RedisLink): string => `${redis.keyPrefix}bff:sites:changed`;

/**
 * Tells every BFF instance on this Redis that a site changed (the CLI, after
 * each change it made). Throws when Redis is down or refuses: the caller
 * treats that as a warning, since the instances' polling sees the change anyway.
 */
export async function announceSiteChange(redis: RedisLink, siteId: string): Promise<void> {
  await redis.send(['PUBLISH', siteChangesChannel(redis), siteId]);
}

export interface SiteChangesOptions {
  store: SiteStore;
  /** REDIS_URL's link: news of a change arrives at once instead of at the next poll. */
  redis?: RedisLink;
  /** How often the table is looked at (SITE_POLL_MS when absent). */
  pollMs?: number;
  logger: Logger;
}

/**
 * Calls `onChange(siteId)` when a site is created, changed or deleted by
 * anyone (the CLI, another instance), and hands every look's whole table to
 * `onLook`, so that a change reaches every instance within seconds. Two ways
 * to learn of a change:
 *
 * - Redis pub/sub (when `redis` is given): the CLI announces each change
 *   after it is committed, and the announcement makes this instance look at
 *   the table at once.
 * - Polling: every `pollMs` the table's revisions (SiteStore.versions) are
 *   read. `onLook` gets them all: the instance checks every site it holds
 *   against them (SiteRegistry.reconcile), which is what bounds how long a
 *   stale site can be served, whatever a notice or a comparison missed: a
 *   notice lost while Redis was down or sent before this instance
 *   subscribed, a deployment without Redis, a change made by hand, a site
 *   created and deleted between two looks (which comparing a look with the
 *   last one never sees).
 *
 * `onChange` also gets each site whose revision differs from the last look's,
 * or that went away, and every announced site even when the table looks
 * unchanged; a site is reported at most once per look, and the first look
 * reports nothing. A failing look is logged once (when it begins and when it
 * ends) and tried again at the next interval.
 */
export function watchSiteChanges(
  options: SiteChangesOptions,
  onChange: (siteId: string) => void,
  onLook?: (revisions: ReadonlyMap<string, string>) => void,
): { close(): Promise<void> } {
  const { store, redis, logger } = options;
  const pollMs = options.pollMs ?? SITE_POLL_MS;
  let last: Map<string, string> | undefined;
  let closed = false;
  let failing = false;
  let timer: NodeJS.Timeout | undefined;
  /** Sites announced since the last look: reported by the next one whatever the table says. */
  const announced = new Set<string>();
  /** Looks run one after another, never two at once. */
  let looking: Promise<void> = Promise.resolve();

  const report = (siteId: string) => {
    try {
      onChange(siteId);
    } catch (error) {
      logger.error({ site_id: siteId, err: error }, 'reacting to a site change failed');
    }
  };

  const look = async () => {
    let now: Map<string, string>;
    try {
      now = await store.versions();
    } catch (error) {
      if (!failing) logger.warn({ err: error }, 'cannot read the sites table to see changes; trying again');
      failing = true;
      return;
    }
    if (failing) logger.info('the sites table is readable again: site changes are seen again');
    failing = false;
    if (closed) return;
    const changed = new Set(announced);
    announced.clear();
    if (last) {
      for (const [siteId, updatedAt] of now) if (last.get(siteId) !== updatedAt) changed.add(siteId);
      for (const siteId of last.keys()) if (!now.has(siteId)) changed.add(siteId);
    }
    last = now;
    for (const siteId of changed) report(siteId);
    try {
      onLook?.(now);
    } catch (error) {
      logger.error({ err: error }, 'checking the sites held against the table failed');
    }
  };

  const lookNow = () => (looking = looking.then(look));

  const schedule = () => {
    timer = setTimeout(() => {
      void lookNow().then(() => {
        if (!closed) schedule();
      });
    }, pollMs);
    // A watcher alone never keeps the process alive: close() is for tidy shutdowns and tests.
    timer.unref();
  };

  void lookNow();
  schedule();

  const unsubscribed = redis
    ? redis
        .subscribe(siteChangesChannel(redis), (message) => {
          if (closed || !SITE_ID_MESSAGE.test(message)) return;
          announced.add(message);
          void lookNow();
        })
        .catch(() => async () => undefined)
    : Promise.resolve(async () => undefined);

  return {
    async close() {
      closed = true;
      clearTimeout(timer);
      await (await unsubscribed)();
      await looking;
    },
  };
}
