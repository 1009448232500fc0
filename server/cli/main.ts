import { systemClock } from '../../platform/clock.js';
import { loadServerConfig } from '../config.js';
import { openDatabase } from '../db/connection.js';
import { CliError, parseCommand, refuseMissingSqliteFile } from './commands.js';

/** `npm run --silent clinic -- <command>`: JSON on stdout, one line on stderr on failure. */
async function main(): Promise<number> {
  const config = loadServerConfig();
  const argv = process.argv.slice(2);
  const command = parseCommand(argv);
  refuseMissingSqliteFile(argv, config.database.url);
  // The CLI's few writes are not group-committed: each COMMIT is synced as SQLITE_SYNCHRONOUS says, by SQLite itself.
  const database = await openDatabase(config.database, { syncInBackground: false });
  try {
    const result = await command({
      database,
      clock: systemClock,
      publicUrl: config.publicUrl,
      retentionDays: config.retentionDays,
      tell: (line) => console.error(line),
      // One JSON line on stderr per patient's data read or erased: keep it (2>>audit.log) as the clinic's record.
      audit: (record) => console.error(JSON.stringify({ audit: true, at: systemClock.now().toISOString(), ...record })),
    });
    process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
    return 0;
  } finally {
    await database.kysely.destroy();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    const usage = error instanceof CliError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS');
    // One line, as promised: Node's parseArgs explains some mistakes over several.
    console.error(`clinic: ${(error instanceof Error ? error.message : String(error)).replace(/\s*\n\s*/g, ' ')}`);
    process.exit(usage ? 2 : 1);
  },
);
