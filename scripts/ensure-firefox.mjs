// Firefox for the widget's browser tests: Debian's firefox-esr (FIREFOX_PATH, else /usr/bin/firefox-esr), driven by
// the puppeteer-core that comes with @web/test-runner-chrome. Installed from Debian's packages where this runs as
// root on Debian; elsewhere one line says what to install, and the Firefox tests skip (or fail under
// REQUIRE_SERVICES=1). Never downloads a browser from anywhere else.
import { existsSync } from 'node:fs';
import { installDebianPackages } from './debian-packages.mjs';

/** Where the Firefox of the tests is looked for. */
export const firefoxPath = (env = process.env) => env.FIREFOX_PATH || '/usr/bin/firefox-esr';

export function ensureFirefox() {
  const wanted = firefoxPath();
  if (existsSync(wanted)) return wanted;
  try {
    installDebianPackages(['firefox-esr'], 'set FIREFOX_PATH to a Firefox binary');
  } catch (error) {
    throw new Error(`Firefox not found at ${wanted}: ${error.message}`);
  }
  if (!existsSync('/usr/bin/firefox-esr')) throw new Error('apt-get installed firefox-esr but /usr/bin/firefox-esr is missing.');
  return '/usr/bin/firefox-esr';
}

if (import.meta.url === `file://${process.argv[1]}`) {
  try {
    console.log(ensureFirefox());
  } catch (error) {
    console.error(error.message);
    process.exit(1);
  }
}
