import { existsSync } from 'node:fs';
import { parseSettings } from '../../platform/config.js';
import { BffConfigSchema, type SitesConfig } from '../config.js';
import { decodeSecretsKey } from '../secrets-key.js';
import { parseOutboundAllowlist, type OutboundAllowlist } from '../outbound/outbound-allowlist.js';

export type { SitesConfig };

/**
 * The settings the sites' database and secrets need, and nothing else: the
 * `sites` CLI runs without a clinic's APP_KEY or BOOKING_REF_SECRET, so it
 * parses only these from the BFF's own schema (one schema, one settings table).
 */
const SitesSchema = BffConfigSchema.pick({
  DATABASE_URL: true,
  SITE_SECRETS_KEY: true,
  SITE_SECRETS_KEY_PREVIOUS: true,
  REDIS_URL: true,
  REDIS_KEY_PREFIX: true,
  OUTBOUND_ALLOWLIST: true,
});

/** What the `sites` CLI needs beside the sites' database and keys: where to announce its changes. */
export interface SitesCliConfig extends SitesConfig {
  /** REDIS_URL: where the CLI announces its changes to the running BFFs (site-changes.ts). */
  redisUrl?: string;
  redisKeyPrefix: string;
  /** OUTBOUND_ALLOWLIST: the internal hosts and ranges a site's upstream_url may be on. */
  outboundAllowlist: OutboundAllowlist;
}

/** Parses the sites' settings, after `.env` when there is one; one Error naming each bad variable, never its value. */
export function loadSitesConfig(env: NodeJS.ProcessEnv = process.env, envFile = '.env'): SitesCliConfig {
  if (env === process.env && existsSync(envFile)) process.loadEnvFile(envFile);
  const e = parseSettings(SitesSchema, env, 'BFF');
  return {
    databaseUrl: e.DATABASE_URL,
    redisUrl: e.REDIS_URL,
    redisKeyPrefix: e.REDIS_KEY_PREFIX,
    outboundAllowlist: parseOutboundAllowlist(e.OUTBOUND_ALLOWLIST),
    ...(e.SITE_SECRETS_KEY === undefined ? {} : { secretsKey: decodeSecretsKey(e.SITE_SECRETS_KEY) }),
    ...(e.SITE_SECRETS_KEY_PREVIOUS === undefined ? {} : { previousSecretsKey: decodeSecretsKey(e.SITE_SECRETS_KEY_PREVIOUS) }),
  };
}
