// `npm start` (after `npm run build`): the whole demo. Seeds the demo clinic and
// a key pair on the first run only (kept in the database and in a git-ignored
// .env), starts the reference server and the BFF together, prints the demo URL,
// and stops both on Ctrl-C. Any start-up failure is one line, not a stack trace.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';

const SERVER_PORT = process.env.SERVER_PORT ?? '4000';
const BFF_PORT = process.env.PORT ?? '8080';
const DATABASE_URL = process.env.DATABASE_URL ?? 'file:data/clinic.db';
const SERVER_URL = `http://127.0.0.1:${SERVER_PORT}`;
// Tests point this elsewhere so they never touch a developer's own .env.
const ENV_FILE = process.env.DEMO_ENV_FILE ?? '.env';

/** Reads KEY=value lines; the BFF reads the same file itself. */
function readEnvFile() {
  if (!existsSync(ENV_FILE)) return {};
  return Object.fromEntries(
    readFileSync(ENV_FILE, 'utf8')
      .split('\n')
      .map((line) => /^([A-Z_]+)=(.*)$/.exec(line.trim()))
      .filter(Boolean)
      .map((match) => [match[1], match[2]]),
  );
}

function databaseFile() {
  return DATABASE_URL.startsWith('file:') ? DATABASE_URL.slice('file:'.length) : DATABASE_URL;
}

/** Seeds once: a .env whose key was made for this database file is reused. Returns the BFF's settings. */
function ensureDemoClinic() {
  const env = readEnvFile();
  if (env.APP_KEY && env.APP_SECRET_KEY && env.DEMO_DATABASE === DATABASE_URL && existsSync(databaseFile())) return env;
  const seeded = spawnSync(process.execPath, ['dist/server/cli/main.js', 'seed-demo'], {
    env: { ...process.env, DATABASE_URL, PUBLIC_URL: SERVER_URL },
    encoding: 'utf8',
  });
  if (seeded.status !== 0) fail(`could not seed the demo clinic: ${seeded.stderr.trim() || 'unknown error'}`);
  const { care_id, app_key, app_secret_key } = JSON.parse(seeded.stdout);
  writeFileSync(
    ENV_FILE,
    [
      '# Written by npm start for the local demo; never commit this file.',
      `DEMO_DATABASE=${DATABASE_URL}`,
      `DEMO_CARE_ID=${care_id}`,
      `UPSTREAM_URL=${SERVER_URL}/api/v1`,
      `APP_KEY=${app_key}`,
      `APP_SECRET_KEY=${app_secret_key}`,
      `ALLOWED_ORIGINS=http://localhost:${BFF_PORT},http://127.0.0.1:${BFF_PORT}`,
      '',
    ].join('\n'),
    { mode: 0o600 },
  );
  console.log(`Seeded the demo clinic (care_id ${care_id}); its key pair is in ${ENV_FILE}.`);
  return readEnvFile();
}

function fail(message) {
  console.error(`npm start: ${message}`);
  process.exit(1);
}

/** Fails with one line that says how to fix it when a port is taken. */
async function ensurePortFree(port, variable) {
  await new Promise((resolve) => {
    const probe = createServer()
      .once('error', () => fail(`port ${port} is already in use; stop what uses it or set ${variable} to another port`))
      .once('listening', () => probe.close(resolve))
      .listen(Number(port), '127.0.0.1');
  });
}

const children = [];
let stopping = false;
let running = false;

function run(name, script, env) {
  const child = spawn(process.execPath, [script], {
    env: { ...process.env, LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn', ...env },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  child.on('exit', (code, signal) => {
    if (stopping) return;
    // During start-up the child has already printed its one-line reason.
    if (running) console.error(`npm start: the ${name} stopped (${signal ?? `exit code ${code}`}); stopping the demo.`);
    stopAll(1);
  });
  children.push(child);
}

function stopAll(code) {
  stopping = true;
  for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
  let pending = children.filter((child) => child.exitCode === null).length;
  if (pending === 0) process.exit(code);
  for (const child of children) child.once('exit', () => --pending === 0 && process.exit(code));
  setTimeout(() => process.exit(code), 5000).unref();
}

async function waitForHealth(url) {
  for (let attempt = 0; attempt < 100 && !stopping; attempt++) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  if (!stopping) fail(`${url} did not become healthy`);
}

await ensurePortFree(SERVER_PORT, 'SERVER_PORT');
await ensurePortFree(BFF_PORT, 'PORT');
const demo = ensureDemoClinic();
run('reference server', 'dist/server/main.js', { PORT: SERVER_PORT, DATABASE_URL, PUBLIC_URL: SERVER_URL });
await waitForHealth(`${SERVER_URL}/healthz`);
run('BFF', 'dist/bff/main.js', {
  PORT: BFF_PORT,
  UPSTREAM_URL: `${SERVER_URL}/api/v1`,
  APP_KEY: demo.APP_KEY,
  APP_SECRET_KEY: demo.APP_SECRET_KEY,
  ALLOWED_ORIGINS: `http://localhost:${BFF_PORT},http://127.0.0.1:${BFF_PORT}`,
});
await waitForHealth(`http://127.0.0.1:${BFF_PORT}/readyz`);

running = true;
console.log(`
clinic-booking demo is running:
  demo page      http://localhost:${BFF_PORT}/
  API reference  ${SERVER_URL}/api/v1/docs
Press Ctrl-C to stop.`);

process.on('SIGINT', () => stopAll(0));
process.on('SIGTERM', () => stopAll(0));
