import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';

/**
 * The tools a consumer of our OpenAPI documents runs, driven as they would be:
 * `redocly lint` from its CLI, openapi-typescript to generate types, and tsc
 * to type-check a client written against them. Shared by the /api/v1 and the
 * BFF document tests.
 */

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const REDOCLY = join(ROOT, 'node_modules/.bin/redocly');
const TSC = join(ROOT, 'node_modules/typescript/bin/tsc');

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs a command to its end; a non-zero exit is a result, not a throw. */
function run(command: string, args: string[], options: { cwd: string; env?: NodeJS.ProcessEnv }): Promise<Run> {
  return new Promise((done) => {
    execFile(command, args, { ...options, maxBuffer: 16 * 1024 * 1024, timeout: 90_000 }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
      done({ code, stdout, stderr });
    });
  });
}

export interface LintProblem {
  ruleId: string;
  severity: 'error' | 'warn';
  message: string;
  location: { pointer: string }[];
}

export interface LintReport {
  totals: { errors: number; warnings: number; ignored: number };
  problems: LintProblem[];
}

/** One line per problem, readable in a failed assertion. */
export const describeProblem = (p: LintProblem) => `${p.severity} ${p.ruleId} at ${p.location[0]?.pointer ?? '?'}: ${p.message}`;

/**
 * Lints `document` with `redocly lint` and the recommended ruleset. The
 * config file is written out so a redocly.yaml anywhere above cannot change
 * the rules; it changes nothing in `recommended` itself.
 */
export async function redoclyLint(document: unknown): Promise<LintReport> {
  const dir = await mkdtemp(join(tmpdir(), 'openapi-lint-'));
  try {
    await writeFile(join(dir, 'openapi.json'), JSON.stringify(document, null, 2));
    await writeFile(join(dir, 'redocly.yaml'), 'extends:\n  - recommended\n');
    const result = await run(REDOCLY, ['lint', 'openapi.json', '--config', 'redocly.yaml', '--format', 'json'], {
      cwd: dir,
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' },
    });
    try {
      return JSON.parse(result.stdout) as LintReport;
    } catch {
      throw new Error(`redocly lint gave no JSON report (exit ${result.code}):\n${result.stdout}\n${result.stderr}`);
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

export interface GeneratedClient {
  dir: string;
  /** Path of the client file, importable at run time. */
  clientFile: string;
  /** tsc's exit code and diagnostics for the client and the generated types. */
  typecheck(): Promise<Run>;
  remove(): Promise<void>;
}

/**
 * Generates `api.ts` from the document at `documentUrl` with openapi-typescript
 * and writes `client.ts` beside it, in a git-ignored folder under
 * test-results/ (so `openapi-fetch` resolves from this repository's node_modules).
 * The client imports `paths` and `operations` from './api.js'.
 */
export async function generateClient(name: string, documentUrl: string, clientSource: string): Promise<GeneratedClient> {
  await mkdir(join(ROOT, 'test-results'), { recursive: true });
  const dir = await mkdtemp(join(ROOT, 'test-results', `openapi-client-${name}-`));
  const types = astToString(await openapiTS(new URL(documentUrl), { silent: true }));
  await writeFile(join(dir, 'api.ts'), types);
  await writeFile(join(dir, 'client.ts'), clientSource);
  await writeFile(
    join(dir, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        target: 'ES2022',
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        lib: ['ES2023', 'DOM'],
        types: [],
        strict: true,
        noUncheckedIndexedAccess: true,
        isolatedModules: true,
        verbatimModuleSyntax: true,
        // Only node_modules' declarations are skipped: api.ts is a .ts file, so it is checked.
        skipLibCheck: true,
        noEmit: true,
      },
      files: ['api.ts', 'client.ts'],
    }),
  );
  return {
    dir,
    clientFile: join(dir, 'client.ts'),
    typecheck: () => run(process.execPath, [TSC, '-p', join(dir, 'tsconfig.json'), '--pretty', 'false'], { cwd: dir }),
    remove: () => rm(dir, { recursive: true, force: true }),
  };
}

export interface OpenApiOperation {
  operationId?: string;
  tags?: string[];
  security?: unknown[];
  parameters?: { name: string; in: string; required?: boolean; schema?: Record<string, unknown> }[];
  responses: Record<string, { $ref?: string; headers?: Record<string, unknown> }>;
}

/** Every operation of a document as [METHOD, path, operation]. */
export function operationsOf<O = OpenApiOperation>(document: { paths: Record<string, Record<string, O>> }) {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, operation]) => [method.toUpperCase(), path, operation] as const),
  );
}

/**
 * Checks that the client source calls every operation of the document, once
 * each, as `client.METHOD('path'`: the list of calls is written by hand, so a
 * new operation without a call here fails.
 */
export function missingCalls(document: { paths: Record<string, Record<string, unknown>> }, clientSource: string): string[] {
  return operationsOf(document)
    .filter(([method, path]) => !clientSource.includes(`.${method}('${path}'`))
    .map(([method, path]) => `${method} ${path}`);
}
