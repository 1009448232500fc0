import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { REPO_ROOT } from '../../../server/support/server-process.js';

const RECORD_IMPORTS = fileURLToPath(new URL('./record-imports.mjs', import.meta.url));

export interface ServiceProcess {
  child: ChildProcess;
  baseUrl: string;
  output(): string;
  /** SIGTERM, then waits for the exit: the service drains and sends its last spans first. */
  stop(): Promise<number | null>;
}

/**
 * Starts a service's real entry point (`server/main.ts` or `bff/main.ts`
 * through tsx) on a free port with exactly `env` (and PATH): nothing of the
 * test runner's own environment, so no stray OTEL_* variable. With
 * `recordImports`, the modules of @opentelemetry/ it loads are listed in that
 * file (support/record-imports.mjs).
 */
export async function startService(entry: 'server/main.ts' | 'bff/main.ts', env: Record<string, string>, recordImports?: string): Promise<ServiceProcess> {
  const args = ['--import', 'tsx', ...(recordImports ? ['--import', RECORD_IMPORTS] : []), entry];
  const child = spawn(process.execPath, args, {
    cwd: REPO_ROOT,
    env: { PATH: process.env.PATH, HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'info', ...env, ...(recordImports ? { RECORD_IMPORTS: recordImports } : {}) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${entry} did not start:\n${output}`)), 45_000);
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /"port":(\d+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(Number(match[1]));
      }
    });
    void exited.then(() => reject(new Error(`${entry} exited during start-up:\n${output}`)));
  });
  return {
    child,
    baseUrl: `http://127.0.0.1:${port}`,
    output: () => output,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      return exited;
    },
  };
}
