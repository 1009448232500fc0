// Installs Debian packages a test lane needs (a browser, its driver, a display), where this runs as root on
// Debian; elsewhere it says in one line what to install. Never downloads anything from outside Debian's archive.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

/** Installs `packages` with apt-get, or throws one line naming them and `hint` (what to do instead). */
export function installDebianPackages(packages, hint) {
  const isRoot = process.getuid?.() === 0;
  const hasApt = existsSync('/usr/bin/apt-get') && existsSync('/etc/debian_version');
  if (!isRoot || !hasApt) throw new Error(`install Debian's ${packages.join(' ')} (sudo apt-get install ${packages.join(' ')})${hint ? ` or ${hint}` : ''}.`);
  console.log(`Installing Debian's ${packages.join(', ')} for the browser tests…`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  for (const args of [['update', '-qq'], ['install', '-y', '-qq', ...packages]]) {
    const run = spawnSync('apt-get', args, { stdio: 'inherit', env });
    if (run.status !== 0) throw new Error(`apt-get ${args.join(' ')} failed; install ${packages.join(' ')} by hand${hint ? ` or ${hint}` : ''}.`);
  }
}
