import { execFile, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort } from '../../support/free-port.js';
import { reachable, servicesRequired } from '../../support/services.js';
import { REPO_ROOT } from '../../server/support/server-process.js';

const run = promisify(execFile);

/** Debian's WordPress (package wordpress), its default theme and the MariaDB every machine here runs. */
export const WORDPRESS = {
  tree: '/usr/share/wordpress',
  theme: '/usr/share/wordpress/wp-content/themes/twentytwentythree',
  php: process.env.PHP_BINARY || '/usr/bin/php',
  database: process.env.TEST_MARIADB_URL ?? 'mysql://root@127.0.0.1:3306',
};

const SUPPORT = join(REPO_ROOT, 'test', 'wordpress', 'support');

/**
 * What this machine lacks for the WordPress lane, in words ([] when it has it all): php with mysqli, Debian's
 * wordpress and its Twenty Twenty-Three theme, zip, unzip and xgettext for the plugin's zip and translation
 * template, and a MariaDB server to reach.
 * scripts/wordpress/install-wordpress.sh installs the packages.
 */
export async function missingForWordPress(): Promise<string[]> {
  const missing: string[] = [];
  const php = existsSync(WORDPRESS.php) ? spawnSync(WORDPRESS.php, ['-m'], { encoding: 'utf8' }) : undefined;
  if (!php || php.status !== 0) missing.push(`php (Debian: php-cli) at ${WORDPRESS.php}`);
  else if (!/^mysqli$/m.test(php.stdout)) missing.push("php's mysqli (Debian: php-mysql)");
  if (!existsSync(join(WORDPRESS.tree, 'wp-settings.php'))) missing.push(`WordPress at ${WORDPRESS.tree} (Debian: wordpress)`);
  if (!existsSync(WORDPRESS.theme)) missing.push('the Twenty Twenty-Three theme (Debian: wordpress-theme-twentytwentythree)');
  const tools = { zip: ['-v', 'zip'], unzip: ['-v', 'unzip'], xgettext: ['--version', 'gettext'] } as const;
  for (const [tool, [flag, debian]] of Object.entries(tools)) {
    if (spawnSync(tool, [flag], { stdio: 'ignore' }).status !== 0) missing.push(`${tool} (Debian: ${debian})`);
  }
  const { hostname, port } = new URL(WORDPRESS.database);
  if (!(await reachable(`tcp://${hostname}:${port || 3306}`))) missing.push(`a MariaDB or MySQL server at ${hostname}:${port || 3306}`);
  return missing;
}

/**
 * Whether the WordPress suites run: everything is here, or REQUIRE_SERVICES=1 (CI), which runs them so that they
 * fail. Says in one line what is missing and what happens.
 */
export async function wordPressLaneRuns(): Promise<{ runs: boolean; missing: string[] }> {
  const missing = await missingForWordPress();
  if (missing.length > 0) {
    console.log(
      servicesRequired()
        ? `wordpress: missing ${missing.join('; ')}; REQUIRE_SERVICES=1, so the WordPress tests run and fail (scripts/wordpress/install-wordpress.sh installs them)`
        : `wordpress: missing ${missing.join('; ')}; the WordPress tests are skipped (scripts/wordpress/install-wordpress.sh installs them; REQUIRE_SERVICES=1 makes this a failure)`,
    );
  }
  return { runs: missing.length === 0 || servicesRequired(), missing };
}

export interface RunningWordPress {
  /** http://127.0.0.1:PORT, the site's home and its origin. */
  url: string;
  /** The temporary copy of the WordPress tree this site runs from. */
  dir: string;
  admin: { login: string; password: string };
  /** An Author: no unfiltered_html, so kses filters what they save. */
  author: { id: number; login: string; password: string; appPassword: string };
  /** Runs PHP inside this WordPress (wp-load.php loaded; `$args` holds `args`), and returns what it echoes. */
  php(code: string, ...args: string[]): Promise<string>;
  /** The last lines PHP's built-in server wrote (errors, the requests), for a failing test's message. */
  serverLog(): string;
  close(): Promise<void>;
}

/** A MO file with only its header: an installed en_GB "language pack", so WordPress lets a site be en_GB. */
function headerOnlyMo(language: string): Buffer {
  const header = Buffer.from(`Language: ${language}\nContent-Type: text/plain; charset=UTF-8\n`);
  const mo = Buffer.alloc(45 + header.length + 1);
  // Magic, revision, one string, originals at 28, translations at 36, no hash table; the strings from 44.
  [0x950412de, 0, 1, 28, 36, 0, 44, 0, 44, header.length, 45].forEach((value, index) => mo.writeUInt32LE(value, index * 4));
  header.copy(mo, 45);
  return mo;
}

/**
 * A fresh WordPress of its own: a database of its own on the MariaDB server (dropped by close()), a copy of
 * Debian's WordPress tree with a wp-config.php of its own, installed by wp_install() (php-cli), served by PHP's
 * built-in server on `port` (pick it first, so the BFF can allow its origin). The site is en_GB, on the
 * Twenty Twenty-Three theme, with an administrator and an Author.
 */
export async function startWordPress(port: number): Promise<RunningWordPress> {
  const url = `http://127.0.0.1:${port}`;
  const root = mkdtempSync(join(tmpdir(), 'clinic-wordpress-'));
  const dir = join(root, 'site');
  const database = `wp_test_${randomBytes(6).toString('hex')}`;
  const { hostname, port: dbPort, username, password } = new URL(WORDPRESS.database);
  const db = { host: `${hostname}:${dbPort || 3306}`, user: decodeURIComponent(username || 'root'), password: decodeURIComponent(password) };
  let server: ChildProcess | undefined;
  const log: string[] = [];

  const phpIn = async (code: string, ...args: string[]): Promise<string> => {
    const { stdout } = await run(WORDPRESS.php, [join(SUPPORT, 'wp-eval.php'), dir, url, code, ...args], { timeout: 30_000, maxBuffer: 8 * 1024 * 1024 });
    return stdout;
  };
  const dropDatabase = () =>
    run(WORDPRESS.php, [join(SUPPORT, 'database.php'), 'drop', db.host, db.user, db.password, database], { timeout: 30_000 }).catch(() => undefined);

  try {
    // Debian links the libraries it ships once (underscore, PHPMailer, SimplePie…) into the tree by relative paths,
    // which would dangle in a copy: copy what they point to instead.
    cpSync(WORDPRESS.tree, dir, { recursive: true, dereference: true });
    // Debian's wp-config.php looks for /etc/wordpress/config-HOST.php; this copy has its own.
    writeFileSync(join(dir, 'wp-config.php'), wpConfig(database, db));
    mkdirSync(join(dir, 'wp-content', 'languages'), { recursive: true });
    writeFileSync(join(dir, 'wp-content', 'languages', 'en_GB.mo'), headerOnlyMo('en_GB'));
    mkdirSync(join(dir, 'wp-content', 'mu-plugins'), { recursive: true });
    // This machine sends no e-mail: WordPress's notices (a new site, a new user) go nowhere.
    writeFileSync(join(dir, 'wp-content', 'mu-plugins', 'no-mail.php'), "<?php\nadd_filter( 'pre_wp_mail', '__return_false' );\n");

    await run(WORDPRESS.php, [join(SUPPORT, 'database.php'), 'create', db.host, db.user, db.password, database], { timeout: 30_000 });
    const adminPassword = randomBytes(12).toString('base64url');
    const authorPassword = randomBytes(12).toString('base64url');
    const { stdout } = await run(WORDPRESS.php, [join(SUPPORT, 'install-wordpress.php'), dir, url, adminPassword, authorPassword], { timeout: 60_000 });
    const installed = JSON.parse(stdout.trim().split('\n').pop() ?? '{}') as { author_id: number; author_app_password: string };

    // Four workers: a page and its scripts, styles and REST calls load side by side, as under a real server.
    // The workers are forked by the first process and outlive it: they share its process group (detached: a
    // group of its own), which close() ends whole.
    server = spawn(WORDPRESS.php, ['-S', `127.0.0.1:${port}`, '-t', dir], {
      env: { ...process.env, PHP_CLI_SERVER_WORKERS: '4' },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    const keep = (chunk: Buffer) => {
      log.push(...chunk.toString().split('\n').filter(Boolean));
      log.splice(0, Math.max(0, log.length - 200));
    };
    server.stdout?.on('data', keep);
    server.stderr?.on('data', keep);
    await untilAnswers(`${url}/wp-login.php`, server);

    const running = server;
    return {
      url,
      dir,
      admin: { login: 'admin', password: adminPassword },
      author: { id: installed.author_id, login: 'author', password: authorPassword, appPassword: installed.author_app_password },
      php: phpIn,
      serverLog: () => log.slice(-40).join('\n'),
      async close() {
        const exited = new Promise((resolve) => (running.exitCode !== null ? resolve(undefined) : running.once('exit', resolve)));
        stopGroup(running, 'SIGTERM');
        await exited;
        await dropDatabase();
        rmSync(root, { recursive: true, force: true });
      },
    };
  } catch (error) {
    if (server) stopGroup(server, 'SIGKILL');
    await dropDatabase();
    rmSync(root, { recursive: true, force: true });
    throw error;
  }
}

/** Signals the server's whole process group: PHP's built-in server and the workers it forked. */
function stopGroup(server: ChildProcess, signal: NodeJS.Signals): void {
  try {
    if (server.pid !== undefined) process.kill(-server.pid, signal);
  } catch {
    // Already gone.
  }
}

function wpConfig(database: string, db: { host: string; user: string; password: string }): string {
  const literal = (value: string) => `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
  const salts = ['AUTH_KEY', 'SECURE_AUTH_KEY', 'LOGGED_IN_KEY', 'NONCE_KEY', 'AUTH_SALT', 'SECURE_AUTH_SALT', 'LOGGED_IN_SALT', 'NONCE_SALT']
    .map((name) => `define( '${name}', '${randomBytes(24).toString('hex')}' );`)
    .join('\n');
  return `<?php
// A test site's own configuration (test/wordpress/support/wordpress.ts).
define( 'DB_NAME', ${literal(database)} );
define( 'DB_USER', ${literal(db.user)} );
define( 'DB_PASSWORD', ${literal(db.password)} );
define( 'DB_HOST', ${literal(db.host)} );
define( 'DB_CHARSET', 'utf8mb4' );
define( 'DB_COLLATE', '' );
${salts}
// Application passwords over plain http (a 'local' site), for the Author's REST calls.
define( 'WP_ENVIRONMENT_TYPE', 'local' );
// Nothing from outside: no update checks, no cron requests to itself.
define( 'WP_HTTP_BLOCK_EXTERNAL', true );
define( 'AUTOMATIC_UPDATER_DISABLED', true );
define( 'DISABLE_WP_CRON', true );
// The plugin upload unpacks into this copy, which PHP owns.
define( 'FS_METHOD', 'direct' );
$table_prefix = 'wp_';
if ( ! defined( 'ABSPATH' ) ) {
	define( 'ABSPATH', __DIR__ . '/' );
}
require_once ABSPATH . 'wp-settings.php';
`;
}

/** Waits until `url` answers at all (any status), or the server exits. */
async function untilAnswers(url: string, server: ChildProcess): Promise<void> {
  for (let attempt = 0; attempt < 200; attempt++) {
    if (server.exitCode !== null) throw new Error(`php -S exited (${server.exitCode}) before answering`);
    try {
      await fetch(url, { signal: AbortSignal.timeout(2_000) });
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  throw new Error(`${url} did not answer`);
}

/** A port for WordPress, chosen before the BFF starts so that the BFF can allow its origin. */
export const wordPressPort = freePort;
