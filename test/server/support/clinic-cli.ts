import type { Clock } from '../../../platform/clock.js';
import { runCli } from '../../../server/cli/run-cli.js';

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs the CLI's command in this process (server/cli/run-cli.ts) on
 * `databaseUrl`, with this process's settings and `env` over them, and
 * returns what it would have written and its exit code: the same database
 * and code path as `npm run clinic`, without starting a process per call
 * (seconds each through tsx). cli-process.ts runs the real process, for the
 * few tests that prove main.ts wires runCli to it.
 */
export async function clinicCli(
  databaseUrl: string,
  args: string[],
  env: Record<string, string | undefined> = {},
  /** The time it runs at (a test server's clock), else the system's. */
  clock?: Clock,
): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(args, {
    env: { ...process.env, DATABASE_URL: databaseUrl, ...env },
    stdout: (text) => (stdout += text),
    // console.error's bytes: the line and a newline.
    stderr: (line) => (stderr += `${line}\n`),
    clock,
  });
  return { code, stdout, stderr };
}
