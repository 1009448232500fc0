import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import type { z } from 'zod';
import type { Clock } from '../../platform/clock.js';
import { describeIssues } from '../../platform/validation.js';
import { SiteStore } from '../sites/site.store.js';
import { upstreamRefusal } from '../sites/site-upstream.js';
import type { OutboundPolicy } from '../outbound/outbound-policy.js';
import { SiteFile, SiteKeyPair, SiteOrigin, viewOf, type SiteRecord } from '../sites/site.js';

export interface SitesCliDeps {
  store: SiteStore;
  clock: Clock;
  /** The rule a site's upstream_url must pass (OUTBOUND_ALLOWLIST): no address inside a network unless allowed. */
  outbound: OutboundPolicy;
  /** Standard input, read whole: where `rotate-secret` takes the new key pair (never from an argument, which `ps` shows). */
  readInput: () => Promise<string>;
  /** One audit line per change: what, which site, when; never a secret. */
  audit: (entry: { event: string; site_id?: string; at: string; [detail: string]: unknown }) => void;
  /**
   * Tells the running BFFs at once that a site changed (REDIS_URL set). Never
   * fails a command: a change not announced is still seen by every BFF's
   * polling of the table within seconds.
   */
  announce?: (siteId: string) => Promise<void>;
}

/** A mistake in how the command was called or what it names: one line, exit code 2. */
export class CliError extends Error {}

export const USAGE = `usage: bff sites <command>
  sites create --file site.json               create a site; prints {"site_id": "cbs_…"}
  sites list                                  every site (never a secret)
  sites show --site ID                        one site (never a secret)
  sites set-origins --site ID --origins A,B   replace its allowed origins
  sites rotate-secret --site ID               new {"app_key", "app_secret_key"} JSON read from standard input
  sites suspend --site ID | resume --site ID  stop or restart serving it
  sites delete --site ID                      delete it
  sites reencrypt                             seal every site's secret again under SITE_SECRETS_KEY`;

type Options = { file?: string; site?: string; origins?: string };
type Command = (options: Options, deps: SitesCliDeps) => Promise<unknown>;

/** Recognises the command and parses its options before the database is opened, so a typo creates no file. */
export function parseSitesCommand(argv: string[]): (deps: SitesCliDeps) => Promise<unknown> {
  const [group, action, ...args] = argv;
  const handler = group === 'sites' && action ? COMMANDS[action] : undefined;
  if (!handler) {
    const named = [group, action].filter(Boolean).join(' ');
    throw new CliError(named ? `unknown command: ${named} (sites ${Object.keys(COMMANDS).join(', ')})` : USAGE);
  }
  const { values } = parseArgs({
    args,
    options: { file: { type: 'string' }, site: { type: 'string' }, origins: { type: 'string' } },
    strict: true,
  });
  return (deps) => handler(values, deps);
}

const COMMANDS: Record<string, Command> = {
  create: async ({ file }, { store, clock, outbound, audit, announce }) => {
    const path = required(file, '--file');
    let text: string;
    try {
      text = await readFile(path, 'utf8');
    } catch (error) {
      throw new CliError(`cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? 'unreadable'}`);
    }
    const site = parsed(SiteFile, parseJson(text, path), 'invalid site file');
    const refused = await upstreamRefusal(outbound, site.upstream_url);
    if (refused) throw new CliError(refused);
    const now = clock.now();
    const siteId = await store.create(site, now);
    audit({ event: 'site.created', site_id: siteId, at: now.toISOString() });
    await announce?.(siteId);
    return { site_id: siteId };
  },
  list: async (_options, { store }) => (await store.list()).map(viewOf),
  show: async ({ site }, { store }) => viewOf(known(await store.get(required(site, '--site')), site)),
  'set-origins': async ({ site, origins }, { store, clock, audit, announce }) => {
    const siteId = required(site, '--site');
    const entries = required(origins, '--origins').split(',').map((entry) => entry.trim()).filter(Boolean);
    const canonical = entries.map((entry) => parsed(SiteOrigin, entry, '--origins'));
    const now = clock.now();
    const updated = known(await store.setOrigins(siteId, canonical, now), siteId);
    audit({ event: 'site.origins_set', site_id: siteId, at: now.toISOString(), origins: updated.allowed_origins });
    await announce?.(siteId);
    return viewOf(updated);
  },
  'rotate-secret': async ({ site }, { store, clock, readInput, audit, announce }) => {
    const siteId = required(site, '--site');
    known(await store.get(siteId), siteId);
    const pair = parsed(SiteKeyPair, parseJson(await readInput(), 'standard input'), 'invalid key pair on standard input');
    const now = clock.now();
    const updated = known(await store.rotateSecret(siteId, pair, now), siteId);
    audit({ event: 'site.secret_rotated', site_id: siteId, at: now.toISOString() });
    await announce?.(siteId);
    return viewOf(updated);
  },
  suspend: (options, deps) => setStatus(options, deps, 'suspended'),
  resume: (options, deps) => setStatus(options, deps, 'active'),
  delete: async ({ site }, { store, clock, audit, announce }) => {
    const siteId = required(site, '--site');
    if (!(await store.delete(siteId))) throw unknownSite(siteId);
    const now = clock.now();
    audit({ event: 'site.deleted', site_id: siteId, at: now.toISOString() });
    await announce?.(siteId);
    return { site_id: siteId, deleted: true };
  },
  // Not announced: the secrets are the same, only sealed anew; the BFFs' polling sees the new updated_at.
  reencrypt: async (_options, { store, clock, audit }) => {
    const now = clock.now();
    const count = await store.reencryptAll(now);
    audit({ event: 'sites.reencrypted', at: now.toISOString(), sites: count });
    return { reencrypted: count };
  },
};

async function setStatus({ site }: Options, { store, clock, audit, announce }: SitesCliDeps, status: 'active' | 'suspended') {
  const siteId = required(site, '--site');
  const now = clock.now();
  const updated = known(await store.setStatus(siteId, status, now), siteId);
  audit({ event: status === 'active' ? 'site.resumed' : 'site.suspended', site_id: siteId, at: now.toISOString() });
  await announce?.(siteId);
  return viewOf(updated);
}

function required(value: string | undefined, flag: string): string {
  if (!value) throw new CliError(`${flag} is required`);
  return value;
}

const unknownSite = (siteId: string | undefined) => new CliError(`unknown site: ${JSON.stringify(siteId ?? '').slice(0, 80)}`);

function known(site: SiteRecord | undefined, siteId: string | undefined): SiteRecord {
  if (!site) throw unknownSite(siteId);
  return site;
}

/**
 * JSON.parse, whose own message is not repeated: it quotes the text around
 * the mistake, which may be an app secret.
 */
function parseJson(text: string, where: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new CliError(`${where} is not valid JSON`);
  }
}

function parsed<S extends z.ZodType>(schema: S, value: unknown, what: string): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const { issues } = result.error;
  // A value checked alone (an origin) has custom issues without a path: their messages say it all.
  const problems = issues.every((issue) => issue.path.length === 0 && issue.code === 'custom') ? issues.map((issue) => issue.message).join('; ') : describeIssues(issues);
  throw new CliError(`${what}: ${problems}`);
}
