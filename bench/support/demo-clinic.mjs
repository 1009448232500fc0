// The compiled reference server with the demo clinic: its environment, seeding through the compiled
// CLI, starting it as a child process, and a token from POST /api/v1/granttoken.

import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { HOST, ROOT, spawnNode, waitUntilReady } from './processes.mjs';

const SERVER_ENTRY = join(ROOT, 'dist/server/main.js');
const CLI_ENTRY = join(ROOT, 'dist/server/cli/main.js');

const execFileAsync = promisify(execFile);

/** The environment both the CLI and the server see: only what the benchmark decides, plus PATH. */
export function serverEnvironment(databaseUrl, port) {
  const env = {
    PATH: process.env.PATH ?? '',
    DATABASE_URL: databaseUrl,
    HOST,
    PORT: String(port),
    API_RATE_LIMIT: '100000000',
    TOKEN_RATE_LIMIT: '1000',
    LOG_LEVEL: 'info',
  };
  if (process.env.SQLITE_SYNCHRONOUS) env.SQLITE_SYNCHRONOUS = process.env.SQLITE_SYNCHRONOUS;
  return env;
}

/** Runs the compiled `clinic seed-demo`; returns { care_id, app_key, app_secret_key }. */
export async function seedDemoClinic(env) {
  try {
    const { stdout } = await execFileAsync(process.execPath, [CLI_ENTRY, 'seed-demo'], { cwd: ROOT, env });
    return JSON.parse(stdout);
  } catch (error) {
    throw new Error(`seed-demo failed: ${error.stderr?.trim() || error.message}`);
  }
}

/**
 * Starts dist/server/main.js and waits for /healthz. Its stdout (one pino JSON line per request) is
 * ignored unless `onStdoutLine` is given.
 */
export async function startApiServer(env, { onStdoutLine } = {}) {
  const child = spawnNode('API server', [SERVER_ENTRY], env, { onStdoutLine });
  await waitUntilReady(child, `http://${HOST}:${env.PORT}/healthz`);
  return child;
}

/** POST /granttoken with the key pair; returns the access token. */
export async function grantToken(baseUrl, keys) {
  const response = await fetch(`${baseUrl}/api/v1/granttoken`, {
    method: 'POST',
    headers: { 'x-app-key': keys.app_key, 'x-app-secret-key': keys.app_secret_key },
  });
  const body = await response.json();
  if (response.status !== 200 || typeof body.access_token !== 'string') {
    throw new Error(`granttoken answered ${response.status} (${body.error_code ?? 'no access_token'})`);
  }
  return body.access_token;
}
