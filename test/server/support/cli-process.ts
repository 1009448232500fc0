import { execFile, type ExecFileException } from 'node:child_process';
import { promisify } from 'node:util';
import { entryPointArgs } from '../../support/entry-point.js';
import type { CliResult } from './clinic-cli.js';
import { REPO_ROOT } from './server-process.js';

const execFileAsync = promisify(execFile);

/**
 * Runs the real CLI from source (server/cli/main.ts, bundled: test/support/entry-point.ts) on `databaseUrl`: seconds
 * each, so only for what main.ts itself does (the exit code, stdout); clinic-cli.ts runs commands in-process.
 */
export async function runCliProcess(databaseUrl: string, args: string[], env: Record<string, string> = {}): Promise<CliResult> {
  const options = { cwd: REPO_ROOT, env: { ...process.env, DATABASE_URL: databaseUrl, ...env } };
  try {
    const { stdout, stderr } = await execFileAsync(process.execPath, [...entryPointArgs('server/cli/main.ts'), ...args], options);
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as ExecFileException & { stdout?: string; stderr?: string };
    if (typeof failed.code !== 'number') throw error;
    return { code: failed.code, stdout: failed.stdout ?? '', stderr: failed.stderr ?? '' };
  }
}
