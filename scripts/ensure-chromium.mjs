// Finds the Chromium the browser tests use: CHROME_PATH, else /usr/bin/chromium.
// Where neither exists and this runs as root on Debian, installs Debian's
// `chromium` package; otherwise stops with one line saying how to get one.
// Never downloads a browser from anywhere else.
import { existsSync } from 'node:fs';
import { installDebianPackages } from './debian-packages.mjs';

export function ensureChromium() {
  const wanted = process.env.CHROME_PATH || '/usr/bin/chromium';
  if (existsSync(wanted)) return wanted;
  try {
    installDebianPackages(['chromium'], 'set CHROME_PATH to a Chromium or Chrome binary');
  } catch (error) {
    throw new Error(`Chromium not found at ${wanted}: ${error.message}`);
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
