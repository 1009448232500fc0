import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { entryPointArgs } from '../../support/entry-point.js';

export const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

export interface ServerProcess {
  child: ChildProcess;
  api: string;
  /** Everything the process wrote to stdout and stderr so far. */
  output(): string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/**
 * Runs the real server entry point (server/main.ts, bundled: test/support/entry-point.ts) as its own
 * process on an ephemeral port, for what only a process can show: kill -9,
 * SIGTERM, start-up failures.
 */
export async function startServerProcess(env: Record<string, string>): Promise<ServerProcess> {
  const child = spawn(process.execPath, entryPointArgs('server/main.ts'), {
    cwd: REPO_ROOT,
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  const port = await new Promise<number>((resolve, reject) => {
    // Generous: on a busy machine, with other test files starting processes too, a start takes a while.
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${output}`)), 45_000);
    const onData = () => {
      // The API's own line: with METRICS_PORT set, the metrics listener logs its port first.
      const match = /listening on http:\/\/[^/]+:(\d+)\//.exec(output);
      if (match) {
        clearTimeout(timer);
        child.stdout.off('data', onData);
        resolve(Number(match[1]));
      }
    };
    child.stdout.on('data', onData);
    void exited.then(() => reject(new Error(`server exited during start-up:\n${output}`)));
  });
  return { child, api: `http://127.0.0.1:${port}/api/v1`, output: () => output, exited };
}
