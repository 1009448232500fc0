import { systemClock } from '../../platform/clock.js';
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
  try {
    const result = await command({
      store: new SiteStore(database.db, secrets),
      clock: systemClock,
      readInput: readStdin,
      audit: ({ event, ...entry }) => process.stderr.write(`${JSON.stringify({ audit: event, ...entry })}\n`),
    });
    process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
    return 0;
  } finally {
    await database.close();
  }
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
