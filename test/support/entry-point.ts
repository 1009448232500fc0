import { mkdtempSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildSync } from 'esbuild';

const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** This process's bundles: inside the repository, so that their imports of packages find node_modules. */
let outdir: string | undefined;
const built = new Map<string, string>();

/**
 * The arguments of `node` that run a TypeScript entry point of this repository
 * (a path from the repository's root, `server/main.ts`) as a process of its own.
 *
 * The entry point and the sources it imports are bundled once per test process
 * (esbuild, packages left as imports), so each process a test starts runs the
 * same code without loading it through tsx: 0.4 s of CPU to start instead of 1.3
 * to 4 s, which on 2 cores was most of what the process tests cost.
 */
export function entryPointArgs(entry: string): string[] {
  let bundle = built.get(entry);
  if (!bundle) {
    outdir ??= makeOutdir();
    bundle = join(outdir, entry.replace(/\.ts$/, '.mjs'));
    buildSync({
      entryPoints: [join(REPO_ROOT, entry)],
      outfile: bundle,
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      packages: 'external',
      sourcemap: 'inline',
      logLevel: 'warning',
    });
    built.set(entry, bundle);
  }
  return ['--enable-source-maps', bundle];
}

/** A folder of this process's own; those of test processes that have ended are removed first. */
function makeOutdir(): string {
  const parent = join(REPO_ROOT, 'test-results', 'entry-points');
  mkdirSync(parent, { recursive: true });
  // vitest may end its workers without an 'exit' event, so a later process tidies up after them.
  for (const name of readdirSync(parent)) {
    if (!isRunning(Number(name.split('-')[0]))) rmSync(join(parent, name), { recursive: true, force: true });
  }
  const dir = mkdtempSync(join(parent, `${process.pid}-`));
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

function isRunning(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
