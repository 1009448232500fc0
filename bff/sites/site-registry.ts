import type { Logger } from 'pino';
import type { SiteStore } from './site.store.js';
import type { SiteRecord, SiteKeyPair } from './site.js';
import type { SiteSettings } from './site-settings.js';

/** What a request to /s/{site_id} finds: the site's runtime, a suspended site, or (undefined) no such site. */
export type FoundSite<Runtime> =
  | { status: 'active'; settings: SiteSettings; runtime: Runtime }
  /** Its origins still get CORS, so that their pages can read the 403 `site_suspended` and say why. */
  | { status: 'suspended'; allowedOrigins: readonly string[] };

export interface SiteRegistryOptions<Runtime> {
  store: Pick<SiteStore, 'get' | 'credentials'>;
  /** A site's settings from its row and opened key pair (siteSettingsOf, with the BFF's config). */
  settingsOf: (site: SiteRecord, credentials: SiteKeyPair) => SiteSettings;
  /** Builds a site's runtime (its /api): on its first request, never at boot. */
  build: (settings: SiteSettings) => Runtime;
  /** Called when a site's runtime is dropped: its cache entries go with it. */
  onDrop?: (siteId: string) => void;
  logger: Logger;
}

/**
 * The sites this process has met, each built once on its first request and
 * kept until the site changes (drop). Concurrent first requests share one
 * build (one database read, one runtime). A site not in the database is not
 * remembered, so a site created later is found at its first request; a
 * suspended one is, until it changes.
 */
export class SiteRegistry<Runtime> {
  private readonly sites = new Map<string, Promise<FoundSite<Runtime> | undefined>>();

  constructor(private readonly options: SiteRegistryOptions<Runtime>) {}

  /** The site for a well-formed id; undefined when the database has none. Rejects when its secret cannot be opened. */
  find(siteId: string): Promise<FoundSite<Runtime> | undefined> {
    const known = this.sites.get(siteId);
    if (known) return known;
    const loading = this.load(siteId);
    this.sites.set(siteId, loading);
    // Neither an unknown site nor a failure is kept: the next request asks the database again.
    loading.then(
      (found) => {
        if (!found && this.sites.get(siteId) === loading) this.sites.delete(siteId);
      },
      () => {
        if (this.sites.get(siteId) === loading) this.sites.delete(siteId);
      },
    );
    return loading;
  }

  /** Forgets a site (it was changed or deleted): its next request builds it afresh from the database. */
  drop(siteId: string): void {
    const had = this.sites.delete(siteId);
    this.options.onDrop?.(siteId);
    if (had) this.options.logger.info({ site: siteId }, 'site changed: its runtime and cached content dropped');
  }

  /** How many sites are held (built, suspended, or loading). */
  get size(): number {
    return this.sites.size;
  }

  private async load(siteId: string): Promise<FoundSite<Runtime> | undefined> {
    const site = await this.options.store.get(siteId);
    if (!site) return undefined;
    if (site.status === 'suspended') return { status: 'suspended', allowedOrigins: site.allowed_origins };
    const credentials = await this.options.store.credentials(siteId);
    if (!credentials) return undefined;
    const settings = this.options.settingsOf(site, credentials);
    return { status: 'active', settings, runtime: this.options.build(settings) };
  }
}
