import { pino } from 'pino';
import { systemClock } from '../../platform/clock.js';
import { RedisLink } from '../../platform/redis-link.js';
import { announceSiteChange } from '../sites/site-changes.js';
import { SiteSecretError, SiteSecrets } from '../sites/site-secrets.js';
import { SiteStore } from '../sites/site.store.js';
import { loadSitesConfig } from '../sites/sites-config.js';
import { openSitesDatabase } from '../sites/sites-database.js';
import { CliError, parseSitesCommand } from './sites-commands.js';

/** `npm run --silent bff -- sites <command>`: JSON on stdout; audit lines and one line per failure on stderr. */
async function main(): Promise<number> {
  const command = parseSitesCommand(process.argv.slice(2));
  let config;
  try {
    config = loadSitesConfig();
  } catch (error) {
    throw new CliError((error as Error).message);
  }
  const secrets = config.secretsKey ? new SiteSecrets(config.secretsKey, config.previousSecretsKey) : undefined;
  const database = await openSitesDatabase(config.databaseUrl);
  const announcer = config.redisUrl ? changeAnnouncer(config.redisUrl, config.redisKeyPrefix) : undefined;
  try {
    const result = await command({
      store: new SiteStore(database.db, secrets),
      clock: systemClock,
      readInput: readStdin,
      audit: ({ event, ...entry }) => process.stderr.write(`${JSON.stringify({ audit: event, ...entry })}\n`),
      announce: announcer?.announce,
    });
    process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
    return 0;
  } finally {
    await announcer?.close();
    await database.close();
  }
}

/**
 * REDIS_URL set: announces each change to the running BFFs, connecting on the
 * first. A failure is one warning line on stderr, never a failed command: the
 * change is in the database, and the BFFs' polling sees it within seconds.
 */
function changeAnnouncer(url: string, keyPrefix: string) {
  let link: Promise<RedisLink> | undefined;
  return {
    announce: async (siteId: string) => {
      try {
        // The link's own lines (connected, unavailable) are not the CLI's to print: the warning below says what matters.
        link ??= RedisLink.open(url, { logger: pino({ level: 'silent' }), keyPrefix });
        await announceSiteChange(await link, siteId);
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        process.stderr.write(
          `${JSON.stringify({ warning: 'the change was not announced on Redis; running BFFs see it at their next look at the sites table', site_id: siteId, reason })}\n`,
        );
      }
    },
    close: async () => (link ? (await link).close() : undefined),
  };
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    const badInput =
      error instanceof CliError || error instanceof SiteSecretError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS');
    // One line, as promised: Node's parseArgs and the usage text say some things over several.
    console.error(`bff: ${(error instanceof Error ? error.message : String(error)).replace(/\s*\n\s*/g, ' ')}`);
    process.exit(badInput ? 2 : 1);
  },
);
