import { systemClock } from '../../platform/clock.js';
import { SiteSecretError, SiteSecrets } from '../sites/site-secrets.js';
import { SiteStore } from '../sites/site.store.js';
import { loadSitesConfig } from '../sites/sites-config.js';
import { openSitesDatabase } from '../sites/sites-database.js';
import { CliError, parseSitesCommand, USAGE } from './sites-commands.js';
import { changeAnnouncer } from './change-announcer.js';
import { OutboundPolicy } from '../outbound/outbound-policy.js';
import { OutboxStore } from '../outbox/outbox-store.js';
import { OUTBOX_USAGE, parseOutboxCommand } from './outbox-commands.js';
import { parsePatientsCommand, PATIENTS_USAGE } from './patients-commands.js';

/** Where the CLI reads its settings and input and writes its output: the process's own in main.ts, captured ones in tests. */
export interface SitesCliIo {
  /** The settings; process.env itself also reads `.env` (loadSitesConfig). */
  env: NodeJS.ProcessEnv;
  /** Standard input, read whole, only by the commands that take some. */
  readInput: () => Promise<string>;
  stdout: (text: string) => void;
  stderr: (text: string) => void;
}

/**
 * `bff sites <command>`, `bff outbox <command>` and `bff patients <command>` without the process: runs it and returns the exit
 * code (0 done, 2 bad input, 1 anything else), so tests can run it
 * in-process; main.ts only wires it to the process and exits with the code.
 */
export async function runSitesCli(argv: string[], io: SitesCliIo): Promise<number> {
  try {
    return await runCommand(argv, io);
  } catch (error) {
    const badInput =
      error instanceof CliError || error instanceof SiteSecretError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS');
    // One line, as promised: Node's parseArgs and the usage text say some things over several.
    io.stderr(`bff: ${(error instanceof Error ? error.message : String(error)).replace(/\s*\n\s*/g, ' ')}\n`);
    return badInput ? 2 : 1;
  }
}

/** JSON on stdout; audit lines on stderr; a failure thrown, for runSitesCli to word. */
async function runCommand(argv: string[], io: SitesCliIo): Promise<number> {
  const [group] = argv;
  if (group === 'outbox') return runOutboxCommand(argv, io);
  if (group === 'patients') return runPatientsCommand(argv, io);
  if (group !== 'sites') {
    throw new CliError(group ? `unknown command: ${group} (sites, outbox, patients)` : `${USAGE}\n${OUTBOX_USAGE}\n${PATIENTS_USAGE}`);
  }
  const command = parseSitesCommand(argv);
  const config = cliConfig(io.env);
  const secrets = config.secretsKey ? new SiteSecrets(config.secretsKey, config.previousSecretsKey) : undefined;
  const database = await openSitesDatabase(config.databaseUrl);
  const announcer = config.redisUrl ? changeAnnouncer(config.redisUrl, config.redisKeyPrefix, io.stderr) : undefined;
  try {
    const result = await command({
      store: new SiteStore(database.db, secrets),
      clock: systemClock,
      outbound: new OutboundPolicy({ allowlist: config.outboundAllowlist }),
      readInput: io.readInput,
      audit: ({ event, ...entry }) => io.stderr(`${JSON.stringify({ audit: event, ...entry })}\n`),
      announce: announcer?.announce,
    });
    io.stdout(`${JSON.stringify(result, null, 2)}\n`);
    return 0;
  } finally {
    await announcer?.close();
    await database.close();
  }
}

/** The outbox's commands need the database only: no secrets key, no Redis. */
async function runOutboxCommand(argv: string[], io: SitesCliIo): Promise<number> {
  const command = parseOutboxCommand(argv);
  const config = cliConfig(io.env);
  const database = await openSitesDatabase(config.databaseUrl);
  try {
    const result = await command({
      store: new OutboxStore(database.db, database.engine),
      clock: systemClock,
      audit: ({ event, ...entry }) => io.stderr(`${JSON.stringify({ audit: event, ...entry })}\n`),
    });
    io.stdout(`${JSON.stringify(result, null, 2)}\n`);
    return 0;
  } finally {
    await database.close();
  }
}

/**
 * A patient's request: the database only. The audit line has the server's
 * `clinic patients` shape (`audit: true`, the action, the counts, the
 * patient's hash), so one audit log reads the same for both services.
 */
async function runPatientsCommand(argv: string[], io: SitesCliIo): Promise<number> {
  const command = parsePatientsCommand(argv);
  const config = cliConfig(io.env);
  const database = await openSitesDatabase(config.databaseUrl);
  try {
    const result = await command({
      database,
      clock: systemClock,
      audit: (record) => io.stderr(`${JSON.stringify({ audit: true, ...record })}\n`),
    });
    io.stdout(`${JSON.stringify(result, null, 2)}\n`);
    return 0;
  } finally {
    await database.close();
  }
}

/** The settings, a bad one said as bad input (exit code 2). */
function cliConfig(env: NodeJS.ProcessEnv) {
  try {
    return loadSitesConfig(env);
  } catch (error) {
    throw new CliError((error as Error).message);
  }
}
