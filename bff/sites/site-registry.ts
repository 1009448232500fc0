import type { Logger } from 'pino';
import { systemClock, type Clock } from '../../platform/clock.js';
import type { ServedSite, SiteStore } from './site.store.js';
import type { SiteCredentials, SiteRecord } from './site.js';
import type { SiteSettings } from './site-settings.js';

/** What a request to /s/{site_id} finds: the site's runtime, a suspended site, or (undefined) no such site. */
export type FoundSite<Runtime> =
  | { status: 'active'; settings: SiteSettings; runtime: Runtime }
  /** Its origins still get CORS, so that their pages can read the 403 `site_suspended` and say why. */
  | { status: 'suspended'; allowedOrigins: readonly string[] };

/**
 * How long an id the database does not hold is answered 404 from memory. Short,
 * and never what makes a new site found: a site that appears is dropped from
 * here by the change watcher (reconcile, drop), like any other change.
 */
export const UNKNOWN_SITE_TTL_MS = 10_000;

/** Unknown ids remembered at most: a client asking for random ids pushes out only its own oldest. */
export const UNKNOWN_SITES_HELD = 10_000;

export interface SiteRegistryOptions<Runtime> {
  store: Pick<SiteStore, 'serving'>;
  /** A site's settings from its row, the revision it was read at and its opened secrets (siteSettingsOf, with the BFF's config). */
  settingsOf: (site: SiteRecord, credentials: SiteCredentials, revision: string) => SiteSettings;
  /** Builds a site's runtime (its /api): on its first request, never at boot. */
  build: (settings: SiteSettings) => Runtime;
  /** Called when a site's runtime is dropped: its cache entries go with it. */
  onDrop?: (siteId: string) => void;
  /** Times unknown ids out (UNKNOWN_SITE_TTL_MS). */
  clock?: Clock;
  logger: Logger;
}

/** A site held: its build, and once read, the revision of the row it was built from. */
interface Held<Runtime> {
  found: Promise<FoundSite<Runtime> | undefined>;
  revision?: string;
}

/**
 * The sites this process has met, each built once on its first request and
 * kept until the site changes (drop, reconcile). Concurrent first requests
 * share one build (one database read, one runtime). An id the database does
 * not hold is remembered for a short while (UNKNOWN_SITE_TTL_MS), so asking
 * for it again costs no read.
 *
 * Each site is held with the revision of the row it was built from, and
 * reconcile() drops every site whose row is gone or at another revision.
 * Comparing what is held with the table, rather than the table with an
 * earlier look at it, is what makes a change reach this instance whatever
 * was missed: a site created and deleted between two looks, a change made
 * before the first look, a notice lost, a build that read the row before a
 * change and finished after the change was seen.
 */
export class SiteRegistry<Runtime> {
  private readonly sites = new Map<string, Held<Runtime>>();
  /** Ids the database did not hold, each with when that answer expires; oldest first. */
  private readonly unknown = new Map<string, number>();
  private readonly clock: Clock;

  constructor(private readonly options: SiteRegistryOptions<Runtime>) {
    this.clock = options.clock ?? systemClock;
  }

  /** The site for a well-formed id; undefined when the database has none. Rejects when its secret cannot be opened. */
  find(siteId: string): Promise<FoundSite<Runtime> | undefined> {
    const held = this.sites.get(siteId);
    if (held) return held.found;
    if (this.knownUnknown(siteId)) return Promise.resolve(undefined);
    const entry: Held<Runtime> = { found: Promise.resolve(undefined) };
    entry.found = this.load(siteId, entry);
    this.sites.set(siteId, entry);
    // A failure is not kept: the next request asks the database again.
    entry.found.catch(() => {
      if (this.sites.get(siteId) === entry) this.sites.delete(siteId);
    });
    return entry.found;
  }

  /** Whether a request for this id is answered from memory without a read of the database: a site built or being built. */
  holds(siteId: string): boolean {
    return this.sites.has(siteId);
  }

  /** Forgets a site (it was changed, created or deleted): its next request reads the database afresh. */
  drop(siteId: string): void {
    const had = this.sites.delete(siteId);
    this.unknown.delete(siteId);
    this.options.onDrop?.(siteId);
    if (had) this.options.logger.info({ site: siteId }, 'site changed: its runtime and cached content dropped');
  }

  /**
   * Checks what is held against the table as it is now (each site's
   * revision; SiteStore.versions): drops a site gone from it or at another
   * revision, and forgets an unknown id that is now a site. A site still
   * being read is checked once its read ends, against this same table: a
   * read that began before a change and ends after this look is not kept.
   */
  reconcile(revisions: ReadonlyMap<string, string>): void {
    for (const [siteId, held] of this.sites) {
      if (held.revision !== undefined) {
        if (revisions.get(siteId) !== held.revision) this.drop(siteId);
        continue;
      }
      held.found.then(
        () => {
          if (this.sites.get(siteId) === held && held.revision !== revisions.get(siteId)) this.drop(siteId);
          else if (this.unknown.has(siteId) && revisions.has(siteId)) this.drop(siteId);
        },
        () => undefined,
      );
    }
    const now = this.clock.now().getTime();
    for (const [siteId, expiresAt] of this.unknown) {
      if (revisions.has(siteId)) this.drop(siteId);
      else if (expiresAt <= now) this.unknown.delete(siteId);
    }
  }

  /** How many sites are held (built, suspended, or loading); unknown ids not counted. */
  get size(): number {
    return this.sites.size;
  }

  /** Whether the id was read as no site a short while ago. */
  private knownUnknown(siteId: string): boolean {
    const expiresAt = this.unknown.get(siteId);
    if (expiresAt === undefined) return false;
    if (expiresAt > this.clock.now().getTime()) return true;
    this.unknown.delete(siteId);
    return false;
  }

  private rememberUnknown(siteId: string): void {
    this.unknown.delete(siteId);
    this.unknown.set(siteId, this.clock.now().getTime() + UNKNOWN_SITE_TTL_MS);
    if (this.unknown.size > UNKNOWN_SITES_HELD) this.unknown.delete(this.unknown.keys().next().value!);
  }

  /**
   * Reads and builds the site. Whatever it read answers the request that
   * asked (as any request in flight during a change); it is kept only while
   * `entry` is still the one held, i.e. no change was seen meanwhile.
   */
  private async load(siteId: string, entry: Held<Runtime>): Promise<FoundSite<Runtime> | undefined> {
    const served: ServedSite | undefined = await this.options.store.serving(siteId);
    const current = this.sites.get(siteId) === entry;
    if (!served) {
      if (current) {
        this.sites.delete(siteId);
        this.rememberUnknown(siteId);
      }
      return undefined;
    }
    if (current) entry.revision = served.revision;
    if (served.status === 'suspended') return { status: 'suspended', allowedOrigins: served.site.allowed_origins };
    const settings = this.options.settingsOf(served.site, served.credentials, served.revision);
    return { status: 'active', settings, runtime: this.options.build(settings) };
  }
}
