import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { entryPointArgs } from '../../support/entry-point.js';
import { REPO_ROOT } from '../../server/support/server-process.js';

/** Far more than one buffer (4 KB) and one pipe (64 KB) hold: about 2.5 MB of log lines. */
const LINES = 10_000;

interface Run {
  code: number | null;
  lines: { msg?: string; line?: number }[];
  stderr: string;
}

/**
 * Runs log-burst-process.ts in `mode` with its stdout a pipe, as a service's
 * is under a process manager; sends SIGTERM once it listens when asked to;
 * collects every line it wrote.
 */
function run(mode: 'shutdown' | 'fatal', { sigtermOnceListening = false } = {}): Promise<Run> {
  const child = spawn(process.execPath, [...entryPointArgs('test/platform/fast-http/log-burst-process.ts'), mode, String(LINES)], {
    cwd: REPO_ROOT,
    env: { ...process.env, LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8');
  child.stderr.setEncoding('utf8');
  child.stdout.on('data', (chunk: string) => {
    stdout += chunk;
    if (sigtermOnceListening && stdout.includes('listening on')) {
      sigtermOnceListening = false;
      child.kill('SIGTERM');
    }
  });
  child.stderr.on('data', (chunk: string) => (stderr += chunk));
  return new Promise((resolve) => {
    child.on('close', (code) => {
      const lines = stdout
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as { msg?: string; line?: number });
      resolve({ code, lines, stderr });
    });
  });
}

/** The line numbers of the burst, in the order written. */
const burstLines = (run: Run) => run.lines.filter((line) => line.msg === 'burst').map((line) => line.line);
const everyLine = Array.from({ length: LINES }, (_, line) => line);

describe('the buffered log destination', () => {
  it('writes every line logged during the drain, and the last one, before a SIGTERM exit', { timeout: 60_000 }, async () => {
    const result = await run('shutdown', { sigtermOnceListening: true });

    expect(result.code, result.stderr).toBe(0);
    expect(burstLines(result)).toEqual(everyLine);
    expect(result.lines.at(-1)?.msg).toBe('stopped');
  });

  it('writes every line logged before an uncaught exception ends the process', { timeout: 60_000 }, async () => {
    const result = await run('fatal');

    expect(result.code).toBe(1);
    expect(result.stderr).toContain('fatal error right after the burst');
    expect(burstLines(result)).toEqual(everyLine);
  });
});
