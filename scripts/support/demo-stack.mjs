// What `npm start` (scripts/start.mjs) and `npm run dev` (scripts/dev.mjs)
// share: where the demo runs, seeding the demo clinic and a key pair on the
// first run only (kept in the database and in a git-ignored .env), and running
// the services together: one line on any start-up failure, all stopped on Ctrl-C.
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { appendFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';

/** Where the demo runs; SERVER_PORT, PORT, MAILBOX_PORT, MAILBOX_SMTP_PORT and DATABASE_URL move it. */
export function demoSettings(env = process.env) {
  const serverPort = env.SERVER_PORT ?? '4000';
  const bffPort = env.PORT ?? '8080';
  return {
    serverPort,
    bffPort,
    // The clinic's mailbox of `npm start` (demo-mailbox.mjs): its page, and the SMTP port the BFF sends to.
    mailboxPort: env.MAILBOX_PORT ?? '8025',
    mailboxSmtpPort: env.MAILBOX_SMTP_PORT ?? '2525',
    databaseUrl: env.DATABASE_URL ?? 'file:data/clinic.db',
    serverUrl: `http://127.0.0.1:${serverPort}`,
    // Tests point this elsewhere so they never touch a developer's own .env.
    envFile: env.DEMO_ENV_FILE ?? '.env',
    allowedOrigins: `http://localhost:${bffPort},http://127.0.0.1:${bffPort}`,
  };
}

/**
 * The settings both services get: .env's lines, then the environment's (which
 * win), so every setting a deployer gives reaches them. The names the demo
 * itself decides (each service's PORT, the BFF's upstream and key pair) are
 * set per service by the caller; ALLOWED_ORIGINS is the demo's own origins
 * plus any the deployer gave.
 */
export function serviceSettings({ envFile, allowedOrigins }, env = process.env) {
  const settings = { ...readEnvFile(envFile), ...env };
  const origins = new Set([...allowedOrigins.split(','), ...(settings.ALLOWED_ORIGINS ?? '').split(',')].map((o) => o.trim()).filter(Boolean));
  return { ...settings, ALLOWED_ORIGINS: [...origins].join(',') };
}

/**
 * The BFF's share of `serviceSettings`: everything but DATABASE_URL, which
 * names the reference server's database (the clinic system's). The BFF has a
 * database of its own (its sites, docs/sites.md) and must never open the
 * server's: a deployer who wants one other than `data/bff.db` names it
 * BFF_DATABASE_URL here, and the BFF gets it as its DATABASE_URL.
 */
export function bffSettings(shared) {
  const { BFF_DATABASE_URL, ...rest } = shared;
  delete rest.DATABASE_URL;
  return BFF_DATABASE_URL ? { ...rest, DATABASE_URL: BFF_DATABASE_URL } : rest;
}

/**
 * METRICS_PORT under `npm start` and `npm run dev`: two services cannot listen
 * on one port, so the reference server gets METRICS_PORT and the BFF the port
 * after it (9464 and 9465, the scrape config of docs/operations.md). 0 (any
 * free port) stays 0 for both; a value that is no port goes to both as it is,
 * for each service to refuse in its one line. Unset, neither keeps metrics.
 */
export function metricsPorts(shared) {
  const port = shared.METRICS_PORT?.trim();
  if (!port) return undefined;
  if (!/^\d+$/.test(port) || Number(port) === 0) return { server: port, bff: port, host: shared.METRICS_HOST ?? '127.0.0.1' };
  return { server: port, bff: String(Number(port) + 1), host: shared.METRICS_HOST ?? '127.0.0.1' };
}

/**
 * The banner's line for the metrics of `metricsPorts` (none when unset, or when each took any free port);
 * `labelWidth` lines its URL up with the banner's others.
 */
export function metricsBannerLine(metrics, labelWidth = 15) {
  if (!metrics || !/^[1-9]\d*$/.test(metrics.server)) return '';
  const url = (port) => `http://${metrics.host}:${port}/metrics`;
  return `\n  ${'metrics'.padEnd(labelWidth)}${url(metrics.server)} (server, METRICS_PORT), ${url(metrics.bff)} (BFF, METRICS_PORT+1)`;
}

/** The demo clinic's e-mail: the sender of the BFF's messages and the clinic's own address. */
export const DEMO_MAIL = { from: 'bookings@demo-clinic.test', clinic: 'reception@demo-clinic.test' };

/**
 * The relay the deployer named in .env or the environment (SMTP_URL), if any: the demo then sends through it
 * and starts no mailbox of its own. Only its host and port are ever printed (it may hold a password).
 */
export function ownMailRelay(shared) {
  const url = shared.SMTP_URL?.trim();
  if (!url) return undefined;
  try {
    return { host: new URL(url).host || url };
  } catch {
    // Not a URL: the BFF refuses it in its one line.
    return { host: 'an SMTP_URL the BFF will check' };
  }
}

/**
 * The BFF's e-mail settings when it sends to the demo's mailbox: loopback SMTP (no STARTTLS needed there),
 * the demo clinic's sender and address unless the deployer gave their own (every message is caught anyway).
 */
export function demoMailSettings(shared, smtpPort) {
  return {
    SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
    MAIL_FROM: shared.MAIL_FROM?.trim() || DEMO_MAIL.from,
    CLINIC_NOTIFY_EMAIL: shared.CLINIC_NOTIFY_EMAIL?.trim() || DEMO_MAIL.clinic,
  };
}

/** Reads KEY=value lines; the BFF reads the same file itself. */
function readEnvFile(file) {
  if (!existsSync(file)) return {};
  return Object.fromEntries(
    readFileSync(file, 'utf8')
      .split('\n')
      .map((line) => /^([A-Z_]+)=(.*)$/.exec(line.trim()))
      .filter(Boolean)
      .map((match) => [match[1], match[2]]),
  );
}

/** A new BOOKING_REF_SECRET: 256 random bits, 43 characters. */
const newReferenceSecret = () => randomBytes(32).toString('base64url');

function databaseFile(databaseUrl) {
  return databaseUrl.startsWith('file:') ? databaseUrl.slice('file:'.length) : databaseUrl;
}

/** Runs the services of one command (`npm start`, `npm run dev`), which names itself in every message. */
export class DemoRunner {
  #children = [];
  #stopping = false;
  #running = false;

  constructor(command) {
    this.command = command;
  }

  /** One line, and exit code 1; any service already started is asked to stop. */
  fail(message) {
    console.error(`${this.command}: ${message}`);
    for (const child of this.#children) if (child.exitCode === null) child.kill('SIGTERM');
    process.exit(1);
  }

  /** Fails with one line that says how to fix it when a port is taken; `what` says whose port it is when the variable does not. */
  async ensurePortFree(port, variable, what) {
    await new Promise((resolve) => {
      const probe = createServer()
        .once('error', () => this.fail(`port ${port}${what ? ` (${what})` : ''} is already in use; stop what uses it or set ${variable} to another port`))
        .once('listening', () => probe.close(resolve))
        .listen(Number(port), '127.0.0.1');
    });
  }

  /**
   * Starts the clinic's mailbox (demo-mailbox.mjs) in this process, so it stops with it. Loaded only when
   * used: smtp-server and mailparser are development packages, there after `npm install`.
   */
  async startMailbox(options) {
    try {
      const { startMailbox } = await import('./demo-mailbox.mjs');
      return await startMailbox(options);
    } catch (error) {
      this.fail(`the clinic's mailbox could not start: ${error.message}`);
    }
  }

  /**
   * Seeds once: a .env whose key was made for this database file is reused.
   * `cli` is the node arguments that run the provisioning CLI (built or from source).
   * Returns the BFF's settings. The booking reference secret is made here too, once,
   * and kept in .env beside the key pair, so a new app key never voids a reference.
   */
  ensureDemoClinic({ databaseUrl, serverUrl, envFile, allowedOrigins }, cli) {
    const env = readEnvFile(envFile);
    if (env.APP_KEY && env.APP_SECRET_KEY && env.DEMO_DATABASE === databaseUrl && existsSync(databaseFile(databaseUrl))) {
      if (env.BOOKING_REF_SECRET) return env;
      // A .env from before BOOKING_REF_SECRET: its references were made from the app secret, which stays readable.
      const newline = readFileSync(envFile, 'utf8').endsWith('\n') ? '' : '\n';
      appendFileSync(envFile, `${newline}BOOKING_REF_SECRET=${newReferenceSecret()}\nBOOKING_REF_SECRET_PREVIOUS=${env.APP_SECRET_KEY}\n`);
      console.log(`Added a booking reference secret to ${envFile}; references made before it keep working.`);
      return readEnvFile(envFile);
    }
    const seeded = spawnSync(process.execPath, [...cli, 'seed-demo'], {
      env: { ...process.env, DATABASE_URL: databaseUrl, PUBLIC_URL: serverUrl },
      encoding: 'utf8',
    });
    if (seeded.status !== 0) this.fail(`could not seed the demo clinic: ${seeded.stderr.trim() || 'unknown error'}`);
    const { care_id, app_key, app_secret_key, existing } = JSON.parse(seeded.stdout);
    writeFileSync(
      envFile,
      [
        `# Written by ${this.command} for the local demo; never commit this file.`,
        `DEMO_DATABASE=${databaseUrl}`,
        `DEMO_CARE_ID=${care_id}`,
        `UPSTREAM_URL=${serverUrl}/api/v1`,
        `APP_KEY=${app_key}`,
        `APP_SECRET_KEY=${app_secret_key}`,
        // Made afresh with the key pair: another database's references must never name this one's bookings.
        `BOOKING_REF_SECRET=${newReferenceSecret()}`,
        `ALLOWED_ORIGINS=${allowedOrigins}`,
        '',
      ].join('\n'),
      { mode: 0o600 },
    );
    console.log(
      existing
        ? `The demo clinic (care_id ${care_id}) was already in the database; a new key pair for it is in ${envFile}.`
        : `Seeded the demo clinic (care_id ${care_id}); its key pair is in ${envFile}.`,
    );
    return readEnvFile(envFile);
  }

  /**
   * Starts `node ...args` with its output on ours. If it stops by itself,
   * everything stops: during start-up it has already printed its one-line reason.
   * `stdin` 'pipe' keeps a stdin open that never ends (Vite stops when its stdin ends).
   */
  run(name, args, env, { stdin = 'ignore' } = {}) {
    const child = spawn(process.execPath, args, {
      env: { LOG_LEVEL: 'warn', ...env },
      stdio: [stdin, 'inherit', 'inherit'],
    });
    child.on('exit', (code, signal) => {
      if (this.#stopping) return;
      if (this.#running) console.error(`${this.command}: the ${name} stopped (${signal ?? `exit code ${code}`}); stopping the demo.`);
      this.stopAll(1);
    });
    this.#children.push(child);
  }

  /** SIGTERM to every service; exits once all have stopped, or after 5 s whatever happens. */
  stopAll(code) {
    this.#stopping = true;
    const children = this.#children;
    for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
    let pending = children.filter((child) => child.exitCode === null).length;
    if (pending === 0) process.exit(code);
    for (const child of children) child.once('exit', () => --pending === 0 && process.exit(code));
    setTimeout(() => process.exit(code), 5000).unref();
  }

  /**
   * The metrics ports of `metricsPorts`, free before either service starts
   * (0 is any free port, nothing to check); a METRICS_PORT that leaves the
   * BFF no port is refused here.
   */
  async ensureMetricsPortsFree(metrics) {
    if (!metrics || !/^\d+$/.test(metrics.server) || metrics.server === '0') return;
    if (Number(metrics.bff) > 65535) this.fail(`METRICS_PORT ${metrics.server} leaves no port for the BFF's metrics, which take METRICS_PORT+1`);
    await this.ensurePortFree(metrics.server, 'METRICS_PORT', "the reference server's metrics, METRICS_PORT");
    await this.ensurePortFree(metrics.bff, 'METRICS_PORT', "the BFF's metrics, METRICS_PORT+1");
  }

  /**
   * Resolves once `url` answers 2xx. Never resolves once the demo is stopping
   * (a service stopped during start-up, having printed its one line): the
   * stop ends the process, and nothing after this may print a "running"
   * banner meanwhile.
   */
  async waitForHealth(url, timeoutMs = 10_000) {
    for (let waited = 0; waited < timeoutMs && !this.#stopping; waited += 100) {
      try {
        if ((await fetch(url)).ok) return;
      } catch {
        // not listening yet
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    if (!this.#stopping) this.fail(`${url} did not become healthy`);
    await new Promise(() => {});
  }

  /**
   * Everything is up: from now on a service that stops is reported, and
   * Ctrl-C, SIGINT or SIGTERM stops them all. A signal sent to the `npm`
   * process alone (`kill -INT`, Docker, systemd, an IDE) reaches this one
   * because package.json's scripts `exec` node: npm passes SIGINT and SIGTERM
   * to the shell it runs a script in, and a shell left between would keep
   * SIGINT to itself while it waits for us (dash and bash both wait for their
   * child, which they never signal, before they act on it). Should npm
   * itself go away without a word (SIGKILL), we are re-parented: that counts
   * as the signal too. Then prints `banner`: never while the demo is stopping.
   */
  started(banner) {
    if (this.#stopping) return;
    this.#running = true;
    console.log(banner);
    process.on('SIGINT', () => this.stopAll(0));
    process.on('SIGTERM', () => this.stopAll(0));
    const parent = process.ppid;
    setInterval(() => process.ppid !== parent && this.stopAll(0), 200).unref();
  }
}
