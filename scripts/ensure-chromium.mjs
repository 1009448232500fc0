// Finds the Chromium the browser tests use: CHROME_PATH, else /usr/bin/chromium.
// Where neither exists and this runs as root on Debian, installs Debian's
// `chromium` package; otherwise stops with one line saying how to get one.
// Never downloads a browser from anywhere else.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

export function ensureChromium() {
  const wanted = process.env.CHROME_PATH || '/usr/bin/chromium';
  if (existsSync(wanted)) return wanted;
  const isRoot = process.getuid?.() === 0;
  const hasApt = existsSync('/usr/bin/apt-get') && existsSync('/etc/debian_version');
  if (!isRoot || !hasApt) {
    throw new Error(
      `Chromium not found at ${wanted}: install Debian's package (sudo apt-get install chromium) or set CHROME_PATH to a Chromium or Chrome binary.`,
    );
  }
  console.log("Installing Debian's chromium package for the browser tests…");
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  for (const args of [['update', '-qq'], ['install', '-y', '-qq', 'chromium']]) {
    const run = spawnSync('apt-get', args, { stdio: 'inherit', env });
    if (run.status !== 0) throw new Error(`apt-get ${args.join(' ')} failed; install chromium by hand or set CHROME_PATH.`);
  }
  if (!existsSync('/usr/bin/chromium')) throw new Error('apt-get installed chromium but /usr/bin/chromium is missing.');
  return '/usr/bin/chromium';
}

if (import.meta.url === `file://${process.argv[1]}`) {
  try {
    console.log(ensureChromium());
  } catch (error) {
    console.error(error.message);
    process.exit(1);
  }
}
