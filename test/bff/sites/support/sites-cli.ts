import { execFile, type ExecFileException } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import { runSitesCli } from '../../../../bff/cli/run-cli.js';
import { entryPointArgs } from '../../../support/entry-point.js';

const repoRoot = fileURLToPath(new URL('../../../../', import.meta.url));

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs the command in this process (bff/cli/run-cli.ts) with only the
 * settings given (no `.env`, nothing of this process's environment), `input`
 * as its standard input, and returns what it wrote and its exit code: the
 * same code and database as `npm run bff -- sites`, without a tsx process
 * per call (seconds each). sitesCliProcess runs the real process.
 */
export async function sitesCli(args: string[], env: Record<string, string>, input = ''): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  const code = await runSitesCli(args, {
    env: { ...env },
    readInput: () => Promise.resolve(input),
    stdout: (text) => (stdout += text),
    stderr: (text) => (stderr += text),
  });
  return { code, stdout, stderr };
}

/**
 * Runs the real CLI from source in a process of its own
 * (bff/cli/main.ts, bundled: test/support/entry-point.ts), with only the settings given
 * (no `.env`, nothing of this process's environment but PATH), `input` on its
 * standard input: for the few tests that prove main.ts wires runSitesCli to the process.
 */
export function sitesCliProcess(args: string[], env: Record<string, string>, input = ''): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      process.execPath,
      [...entryPointArgs('bff/cli/main.ts'), ...args],
      { cwd: repoRoot, env: { PATH: process.env.PATH ?? '', ...env } },
      (error: ExecFileException | null, stdout, stderr) => {
        if (error && typeof error.code !== 'number') reject(error);
        else resolve({ code: error ? Number(error.code) : 0, stdout, stderr });
      },
    );
    child.stdin?.end(input);
  });
}

/** The JSON a successful command printed; fails the test with the CLI's stderr otherwise. */
export function printed<T>(result: CliResult): T {
  expect(result.code, result.stderr).toBe(0);
  return JSON.parse(result.stdout) as T;
}

/** A refused command: exit code 2, nothing on stdout, exactly one line on stderr; returns that line. */
export function refusal(result: CliResult): string {
  expect(result.code, result.stderr).toBe(2);
  expect(result.stdout).toBe('');
  const lines = result.stderr.trimEnd().split('\n');
  expect(lines).toHaveLength(1);
  return lines[0] ?? '';
}

/** The audit lines a command wrote to stderr, parsed. */
export function auditLines(result: CliResult): Record<string, unknown>[] {
  return result.stderr
    .trimEnd()
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}
