import { execFile, type ExecFileException } from 'node:child_process';
import { promisify } from 'node:util';
import { REPO_ROOT } from './server-process.js';

const execFileAsync = promisify(execFile);

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the real CLI from source (`node --import tsx server/cli/main.ts <args>`) on `databaseUrl`. */
export async function runCli(databaseUrl: string, args: string[], env: Record<string, string> = {}): Promise<CliResult> {
  const options = { cwd: REPO_ROOT, env: { ...process.env, DATABASE_URL: databaseUrl, ...env } };
  try {
    const { stdout, stderr } = await execFileAsync(process.execPath, ['--import', 'tsx', 'server/cli/main.ts', ...args], options);
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as ExecFileException & { stdout?: string; stderr?: string };
    if (typeof failed.code !== 'number') throw error;
    return { code: failed.code, stdout: failed.stdout ?? '', stderr: failed.stderr ?? '' };
  }
}
