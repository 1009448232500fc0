import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { entryPointArgs } from '../../../support/entry-point.js';
import { closeWhenScopeEnds, once } from '../../../support/scoped-teardown.js';

const REPO_ROOT = fileURLToPath(new URL('../../../../', import.meta.url));

export interface WorkerProcess {
  child: ChildProcess;
  /** The lease owner it claims as, once it has started. */
  owner: Promise<string>;
  /** Everything it logged, for a failing test's message. */
  output(): string;
  /** The end of the process: its exit code, or the signal that ended it. */
  exited: Promise<number | NodeJS.Signals | null>;
  /** SIGTERM (it finishes its deliveries and exits), unless it has ended already; waits for the end. */
  stop(): Promise<number | NodeJS.Signals | null>;
}

/** Starts support/worker-process.ts in a process of its own, with only these settings; stopped when the scope ends. */
export function startWorkerProcess(env: { DATABASE_URL: string; RECEIVER_URL: string; WORKER_NAME?: string }): WorkerProcess {
  const child = spawn(process.execPath, entryPointArgs('test/bff/outbox/support/worker-process.ts'), {
    cwd: REPO_ROOT,
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | NodeJS.Signals | null>((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal)));
  const owner = new Promise<string>((resolve, reject) => {
    let stdout = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const line = stdout.split('\n')[0];
      if (stdout.includes('\n') && line) resolve((JSON.parse(line) as { owner: string }).owner);
    });
    void exited.then((end) => reject(new Error(`the worker process ended (${String(end)}) before it started:\n${output}`)));
  });
  // A test that only kills it has no use for this promise's rejection.
  owner.catch(() => undefined);
  const stop = once(async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
  });
  closeWhenScopeEnds(stop);
  return { child, owner, output: () => output, exited, stop: async () => (await stop(), exited) };
}
