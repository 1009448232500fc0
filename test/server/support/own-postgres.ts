import { execFile, execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { freePort } from '../../support/free-port.js';

const run = promisify(execFile);

/** Where Debian and Ubuntu put each PostgreSQL version's programs; TEST_POSTGRES_BIN overrides. */
const DEBIAN_ROOT = '/usr/lib/postgresql';

/**
 * The folder holding initdb and pg_ctl: TEST_POSTGRES_BIN, else the newest
 * /usr/lib/postgresql/<version>/bin that has both; undefined when none does.
 */
export function postgresBinDir(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const hasTools = (dir: string) => existsSync(join(dir, 'initdb')) && existsSync(join(dir, 'pg_ctl'));
  if (env.TEST_POSTGRES_BIN) return hasTools(env.TEST_POSTGRES_BIN) ? env.TEST_POSTGRES_BIN : undefined;
  if (!existsSync(DEBIAN_ROOT)) return undefined;
  const versions = readdirSync(DEBIAN_ROOT)
    .filter((name) => /^\d+$/.test(name))
    .sort((a, b) => Number(b) - Number(a));
  return versions.map((version) => join(DEBIAN_ROOT, version, 'bin')).find(hasTools);
}

/** The processes whose parent is `pid`, read from /proc (the postmaster's backends and helpers). */
function childrenOf(pid: number): number[] {
  const children: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // "pid (comm) state ppid ...": comm may hold spaces, so read after its closing parenthesis.
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === pid) children.push(Number(entry));
    } catch {
      // Gone since the listing.
    }
  }
  return children;
}

const signal = (pid: number, name: NodeJS.Signals) => {
  try {
    process.kill(pid, name);
  } catch {
    // Already gone.
  }
};

export interface OwnPostgres {
  /** postgres://postgres@127.0.0.1:<port>/clinic: an empty database the test may use as it likes. */
  url: string;
  port: number;
  /** Starts the cluster (again, on the same port and data); resolves once it accepts connections. */
  start(): Promise<void>;
  /** `pg_ctl stop -m fast`: what a restart, a failover or a maintenance window does to the open sessions. */
  stopFast(): Promise<void>;
  /** pg_terminate_backend for every session of `applicationName`, from a connection of its own; how many were ended. */
  terminateBackends(applicationName: string): Promise<number>;
  /** SIGKILL to one backend of `applicationName`: the postmaster then ends every session and recovers. */
  killBackend(applicationName: string): Promise<void>;
  /** SIGSTOP to the postmaster and all its processes: connections stay open and nothing answers. */
  freeze(): void;
  /** SIGCONT to every process freeze() stopped, and the postmaster's processes now. */
  thaw(): void;
  /** Stops the cluster at once and deletes its folder; safe to call twice, and after a failure. */
  remove(): Promise<void>;
}

/**
 * A PostgreSQL cluster of a test's own, never the machine's shared one: initdb
 * into a temporary folder, a free port on 127.0.0.1, its socket in that folder,
 * trust authentication. PostgreSQL refuses to run as root, so when the tests
 * run as root (CI) its programs run as the `postgres` user, which owns the
 * folder. A test may stop, kill and freeze it; remove() (in afterAll) and the
 * process's exit hook end it whatever happened.
 */
export async function ownPostgres(binDir: string): Promise<OwnPostgres> {
  const root = mkdtempSync(join(tmpdir(), 'clinic-pg-'));
  const data = join(root, 'data');
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    const uid = Number(execFileSync('id', ['-u', 'postgres']).toString());
    const gid = Number(execFileSync('id', ['-g', 'postgres']).toString());
    chownSync(root, uid, gid);
  }
  const asPostgres = (program: string, args: string[]) =>
    asRoot ? run('runuser', ['-u', 'postgres', '--', join(binDir, program), ...args]) : run(join(binDir, program), args);

  const port = await freePort();
  const admin = `postgres://postgres@127.0.0.1:${port}/postgres`;
  const postmasterPid = (): number | undefined => {
    try {
      return Number(readFileSync(join(data, 'postmaster.pid'), 'utf8').split('\n')[0]);
    } catch {
      return undefined;
    }
  };
  let frozen: number[] = [];
  let removed = false;

  const onAdmin = async <T>(work: (client: pg.Client) => Promise<T>): Promise<T> => {
    const client = new pg.Client({ connectionString: admin, application_name: 'own-postgres-admin' });
    client.on('error', () => undefined);
    await client.connect();
    try {
      return await work(client);
    } finally {
      await client.end().catch(() => undefined);
    }
  };
  const backendsOf = (applicationName: string) =>
    onAdmin(async (client) => {
      const { rows } = await client.query<{ pid: number }>('select pid from pg_stat_activity where application_name = $1', [applicationName]);
      return rows.map((row) => row.pid);
    });

  // Never outlive the test process: an immediate shutdown (SIGQUIT), woken first if frozen.
  const onExit = () => {
    const pid = postmasterPid();
    if (pid === undefined) return;
    for (const stopped of frozen) signal(stopped, 'SIGCONT');
    signal(pid, 'SIGCONT');
    signal(pid, 'SIGQUIT');
  };
  process.once('exit', onExit);

  await asPostgres('initdb', ['-D', data, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--no-sync']);

  const own: OwnPostgres = {
    url: `postgres://postgres@127.0.0.1:${port}/clinic`,
    port,
    async start() {
      const options = `-p ${port} -k ${root} -c listen_addresses=127.0.0.1`;
      await asPostgres('pg_ctl', ['-D', data, '-l', join(root, 'log'), '-o', options, '-w', '-t', '60', 'start']);
    },
    async stopFast() {
      await asPostgres('pg_ctl', ['-D', data, '-m', 'fast', '-w', '-t', '60', 'stop']);
    },
    async terminateBackends(applicationName) {
      const pids = await backendsOf(applicationName);
      await onAdmin((client) => client.query('select pg_terminate_backend(pid) from unnest($1::int[]) as pid', [pids]));
      return pids.length;
    },
    async killBackend(applicationName) {
      const [pid] = await backendsOf(applicationName);
      if (pid === undefined) throw new Error(`no session of ${applicationName} to kill`);
      signal(pid, 'SIGKILL');
    },
    freeze() {
      const pid = postmasterPid();
      if (pid === undefined) throw new Error('the cluster is not running');
      // The postmaster first, so it starts nothing new while its processes are being stopped.
      signal(pid, 'SIGSTOP');
      frozen = [pid, ...childrenOf(pid)];
      for (const child of frozen) signal(child, 'SIGSTOP');
    },
    thaw() {
      const pid = postmasterPid();
      for (const stopped of [...frozen, ...(pid === undefined ? [] : [pid, ...childrenOf(pid)])]) signal(stopped, 'SIGCONT');
      frozen = [];
    },
    async remove() {
      if (removed) return;
      removed = true;
      own.thaw();
      if (postmasterPid() !== undefined) {
        await asPostgres('pg_ctl', ['-D', data, '-m', 'immediate', '-w', '-t', '60', 'stop']).catch(() => undefined);
      }
      process.off('exit', onExit);
      rmSync(root, { recursive: true, force: true });
    },
  };

  try {
    await own.start();
    await onAdmin((client) => client.query('create database clinic'));
  } catch (error) {
    await own.remove();
    throw error;
  }
  return own;
}
