import { systemClock, type Clock } from '../../platform/clock.js';
import { loadServerConfig } from '../config.js';
import { openDatabase } from '../db/connection.js';
import { CliError, parseCommand, refuseMissingSqliteFile } from './commands.js';

/** Where the CLI reads its settings and writes its output: the process's own in main.ts, captured ones in tests. */
export interface CliIo {
  env: NodeJS.ProcessEnv;
  /** The JSON result, written as is. */
  stdout: (text: string) => void;
  /** One line for the person at the terminal (console.error's: the newline is the writer's). */
  stderr: (line: string) => void;
  /** The time the command runs at: the system's, unless a test runs it at its server's time. */
  clock?: Clock;
}

/**
 * `clinic <command>` without the process: runs it and returns the exit code
 * (0 done, 2 a mistake in the call, 1 anything else), so tests can run it
 * in-process; main.ts only wires it to the process and exits with the code.
 */
export async function runCli(argv: string[], io: CliIo): Promise<number> {
  try {
    return await runCommand(argv, io);
  } catch (error) {
    const usage = error instanceof CliError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS');
    // One line, as promised: Node's parseArgs explains some mistakes over several.
    io.stderr(`clinic: ${(error instanceof Error ? error.message : String(error)).replace(/\s*\n\s*/g, ' ')}`);
    return usage ? 2 : 1;
  }
}

/** JSON on stdout, one line on stderr on failure (thrown, for runCli to word). */
async function runCommand(argv: string[], io: CliIo): Promise<number> {
  const config = loadServerConfig(io.env);
  const command = parseCommand(argv);
  refuseMissingSqliteFile(argv, config.database.url);
  // The CLI's few writes are not group-committed: each COMMIT is synced as SQLITE_SYNCHRONOUS says, by SQLite itself.
  const database = await openDatabase(config.database);
  const clock = io.clock ?? systemClock;
  try {
    const result = await command({
      database,
      clock,
      publicUrl: config.publicUrl,
      retentionDays: config.retentionDays,
      tell: io.stderr,
      // One JSON line on stderr per patient's data read or erased: keep it (2>>audit.log) as the clinic's record.
      audit: (record) => io.stderr(JSON.stringify({ audit: true, at: clock.now().toISOString(), ...record })),
    });
    io.stdout(`${JSON.stringify(result, null, 2)}\n`);
    return 0;
  } finally {
    await database.kysely.destroy();
  }
}
